// SwiftPM links an executable target `T` with `--defsym main=T_main` (its Swift entry point,
// renamed). A fuzz target has no Swift entry point (`-parse-as-library`), so `T_main` is
// defined here and hands control to libFuzzer's driver, which calls the target's
// `LLVMFuzzerTestOneInput` (an `@_cdecl` Swift function).
#include <stddef.h>
#include <stdint.h>
#include "FuzzDriver.h"

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run(int argc, char **argv) { return LLVMFuzzerRunDriver(&argc, &argv, LLVMFuzzerTestOneInput); }

int FuzzModel_main(int argc, char **argv) { return run(argc, argv); }
int FuzzMapping_main(int argc, char **argv) { return run(argc, argv); }
int FuzzExpression_main(int argc, char **argv) { return run(argc, argv); }
int FuzzModelCache_main(int argc, char **argv) { return run(argc, argv); }
int FuzzMetadata_main(int argc, char **argv) { return run(argc, argv); }
int FuzzArchive_main(int argc, char **argv) { return run(argc, argv); }
