#ifndef CFUZZERDRIVER_H
#define CFUZZERDRIVER_H

#include <stddef.h>
#include <stdint.h>

// libFuzzer's driver, for a program with a main of its own. Declared only: it is defined
// by libFuzzer, which `-sanitize=fuzzer` links, and called only in a build with
// NUMBERFACT_LIBFUZZER set.
int LLVMFuzzerRunDriver(int *argc, char ***argv,
                        int (*callback)(const uint8_t *data, size_t size));

#endif
