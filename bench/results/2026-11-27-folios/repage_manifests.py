"""After repage.cc rewrote a store copy's files: rewrites each generation's MANIFEST with the
files' new sizes and repages it too. repage_manifests.py STORE SHIFT (repage built beside it)."""
import json, os, struct, sys, subprocess
root, shift = sys.argv[1], sys.argv[2]
for d in os.listdir(root):
    m = os.path.join(root, d, 'MANIFEST')
    if not os.path.isfile(m): continue
    b = open(m, 'rb').read()
    foot = bytearray(b[-64:])
    payload = struct.unpack_from('<Q', foot, 40)[0]
    j = json.loads(b[:payload])
    for name, v in j['files'].items():
        v[1] = os.path.getsize(os.path.join(root, d, name))
    p = json.dumps(j, separators=(',', ':')).encode()
    struct.pack_into('<Q', foot, 40, len(p))
    open(m, 'wb').write(p + b'\0' * ((-len(p)) % 8) + bytes(foot))
    subprocess.check_call([os.path.join(os.path.dirname(os.path.abspath(__file__)), 'repage'), shift, m])
    print(m, len(p))
