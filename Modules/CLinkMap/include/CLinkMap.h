#ifndef CLINKMAP_H
#define CLINKMAP_H

#include <stdint.h>

/// One object the dynamic loader has loaded: the fields of `struct dl_phdr_info` that name
/// it and describe its segments.
typedef struct {
  /// The difference between its addresses in the file and in memory.
  uintptr_t bias;
  /// Its path; empty for the program itself.
  const char *_Nullable name;
  /// Its program headers (`Elf64_Phdr` or `Elf32_Phdr`), in memory.
  const void *_Nullable programHeaders;
  /// How many program headers there are.
  uint16_t programHeaderCount;
} CLinkMapImage;

/// Called once per loaded object; return nonzero to stop.
typedef int (*_Nonnull CLinkMapVisitor)(const CLinkMapImage *_Nonnull image,
                                         void *_Nullable context);

/// Calls `visitor` for every loaded object while holding the loader's lock, so none is
/// unloaded meanwhile. Returns what the last call returned. Returns 0 at once where the
/// loader has no such list.
int clinkmap_each_loaded_image(CLinkMapVisitor visitor, void *_Nullable context);

#endif
