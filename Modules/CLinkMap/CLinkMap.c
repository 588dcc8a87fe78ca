// `dl_iterate_phdr` is a GNU extension: the C library's Swift module is built without it.
#define _GNU_SOURCE
#include "CLinkMap.h"

#if defined(__linux__)
#include <link.h>

struct visit {
  CLinkMapVisitor visitor;
  void *context;
};

static int visit_one(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  struct visit *visit = data;
  CLinkMapImage image = {
      .bias = (uintptr_t)info->dlpi_addr,
      .name = info->dlpi_name,
      .programHeaders = info->dlpi_phdr,
      .programHeaderCount = info->dlpi_phnum,
  };
  return visit->visitor(&image, visit->context);
}

int clinkmap_each_loaded_image(CLinkMapVisitor visitor, void *context) {
  struct visit visit = {visitor, context};
  return dl_iterate_phdr(visit_one, &visit);
}
#else
int clinkmap_each_loaded_image(CLinkMapVisitor visitor, void *context) {
  (void)visitor;
  (void)context;
  return 0;
}
#endif
