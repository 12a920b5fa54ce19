// The folder one capture writes: built under a hidden temporary name beside its destination and
// renamed into place only when complete, so an interrupted capture never looks like a capture, and
// never onto an existing folder: an earlier capture is kept and the new one takes the next free
// name (capture-NAME-2, -3, ...). Host files only; no CUDA.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "npy.h"

namespace tuner::capture {

class CaptureFolder {
 public:
  // `parent` must exist; the capture becomes parent/capture-NAME (or -2, -3, ...) on Commit().
  CaptureFolder(const std::string& parent, const std::string& name);
  ~CaptureFolder();  // removes everything unless committed
  CaptureFolder(const CaptureFolder&) = delete;
  CaptureFolder& operator=(const CaptureFolder&) = delete;

  // A new .npy file at `relative` (e.g. "data/in.npy"; its folder is created).
  std::unique_ptr<npy::Writer> NewArray(const std::string& relative, const std::string& descr, std::uint64_t count);
  void Remove(const std::string& relative);
  void WriteText(const std::string& relative, const std::string& text);

  // Copies a kernel source and the headers it includes with quotes from beside it (nested too);
  // returns the source's file name inside the capture. A header from above the source's folder
  // ("../common.cuh") is copied to "included/" inside the capture, its include rewritten.
  std::string CopySource(const std::string& source_path);

  // Moves the folder to its final name and returns that path. Throws if it cannot.
  std::string Commit();
  // Moves the folder to parent/final_name exactly (never onto an existing one) and returns that path.
  std::string CommitAs(const std::string& final_name);

 private:
  std::string Path(const std::string& relative) const;
  void CreateFolderOf(const std::string& relative);

  std::string parent_;
  std::string name_;
  std::string temporary_;
  bool committed_ = false;
};

// Replaces a text file whole: written beside it under a hidden name, then renamed over it, so a
// reader sees the old file or the new one, never a part.
void ReplaceTextFile(const std::string& path, const std::string& text);

// A new .npy file of `count` zeros (an InOut buffer that held zeros, once a later size needs its file).
void WriteZeroArray(const std::string& path, const std::string& descr, std::uint64_t count);

// Why the capture failed: the message names the path and the problem.
struct CaptureError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace tuner::capture
