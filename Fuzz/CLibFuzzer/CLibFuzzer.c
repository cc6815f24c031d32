// The declaration in include/CLibFuzzer.h is all this target provides; libFuzzer defines it.
#include "CLibFuzzer.h"
