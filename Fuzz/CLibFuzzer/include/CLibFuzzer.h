#ifndef SPOTCHECK_CLIBFUZZER_H
#define SPOTCHECK_CLIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver (compiler-rt, linked by `-sanitize=fuzzer`): runs the fuzzing loop with the
/// command line's options, calling `callback` with each input. SwiftPM names an executable's entry
/// point itself, so the harnesses start the driver from their own `main` instead of libFuzzer's.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
