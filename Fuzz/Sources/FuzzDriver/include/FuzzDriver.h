#ifndef REMODEL_FUZZ_DRIVER_H
#define REMODEL_FUZZ_DRIVER_H
// Nothing to call from Swift: this target only supplies each fuzz executable's entry point.
#endif
