// LineReader: the one reader of text lines in the library, for ingest's
// record files and for the tools' JSON lines, id lists and text options
// (jsonl.h). Private to the library.
//
// A line ends at LF, CRLF or a lone CR, and a UTF-8 byte order mark at the
// start of the first line is dropped: what editors and spreadsheet exports
// write.
#pragma once

#include <zlib.h>

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

#include "litgraph/status.h"

namespace litgraph {

class LineReader {
 public:
  LineReader() = default;
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;
  ~LineReader();

  // Opens `path` ("-" = standard input, named "<stdin>" in messages).
  // IoError naming it when it is a directory or cannot be opened.
  // gzip: gzip input is decompressed (plain input reads as is) and each read
  // fills the buffer; otherwise a read returns what has arrived, so a line
  // comes out as soon as its end does (a pipe's writer may wait for the
  // answer before it writes the next line).
  Status Open(const std::string& path, bool gzip);
  // Reads `in` (tests, fuzzing), named `name` in messages.
  void Open(std::istream* in, std::string name);

  const std::string& name() const { return name_; }
  int64_t line_no() const { return line_no_; }
  int64_t bytes() const { return bytes_; }

  // The next line without its end; false at the end of input or on an error
  // (*st: IoError, or MalformedInput for a line over max_bytes or damaged
  // gzip data).
  bool Next(std::string* line, size_t max_bytes, Status* st);

 private:
  // Reads the next block into buf_; its size, 0 at the end, -1 on an error.
  int64_t Fill(Status* st);

  std::string name_;
  gzFile gz_ = nullptr;
  int fd_ = -1;
  bool own_fd_ = false;
  std::istream* in_ = nullptr;
  std::vector<char> buf_;
  size_t pos_ = 0, len_ = 0;
  bool eof_ = false, after_cr_ = false;
  int64_t line_no_ = 0, bytes_ = 0;
};

}  // namespace litgraph
