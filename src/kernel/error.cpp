#include "kernel/error.h"
