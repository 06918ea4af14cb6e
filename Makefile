# iochar build. `make` builds build/iochar; `make check` builds and runs the
# tests; `make SAN=1` builds everything with ASan+UBSan into build-san/.
# Sources are found by folder, so adding a file needs no edit here.

VERSION := 0.1.0
CC      ?= cc
comma   := ,
SAN     ?= 0
WERROR  ?= 0

ifeq ($(SAN),1)
BUILD   := build-san
OPT     := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined
else
BUILD   := build
OPT     := -O2 -g
endif

CFLAGS  ?=
CFLAGS  += -std=gnu11 $(OPT) -Wall -Wextra -Wshadow -Wstrict-prototypes \
           -Wmissing-prototypes -Wno-unused-parameter -pthread \
           -Isrc -DIOCHAR_VERSION='"$(VERSION)"' -MMD -MP
ifeq ($(WERROR),1)
CFLAGS  += -Werror
endif
LDFLAGS += -pthread $(if $(filter 1,$(SAN)),-fsanitize=address$(comma)undefined)
LDLIBS  := -luring -lnuma -laio -lblkid -ljson-c -lcrypto -lxxhash -lz -lpci -lm

# MPI (docs/mpi.md): built in when Open MPI is found (pkg-config ompi-c, else
# mpicc --showme); `make MPI=0` leaves it out, into build-nompi/.
MPI ?= $(shell pkg-config --exists ompi-c 2>/dev/null || command -v mpicc >/dev/null 2>&1 && echo 1 || echo 0)
ifeq ($(MPI),1)
MPI_CFLAGS := $(shell pkg-config --cflags ompi-c 2>/dev/null || mpicc --showme:compile)
MPI_LIBS   := $(shell pkg-config --libs ompi-c 2>/dev/null || mpicc --showme:link)
CFLAGS  += -DIOCHAR_MPI $(MPI_CFLAGS)
LDLIBS  += $(MPI_LIBS)
else ifeq ($(origin MPI),command line)
BUILD   := $(BUILD)-nompi
endif
TEST_LIBS := -lcmocka -ljson-c


SRCS     := $(shell find src -name '*.c' | sort)
LIB_SRCS := $(filter-out src/main.c,$(SRCS))
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o)
TEST_SRCS := $(sort $(wildcard tests/test_*.c))
TEST_BINS := $(TEST_SRCS:tests/%.c=$(BUILD)/tests/%)
TEST_HELPERS := $(filter-out $(TEST_SRCS),$(wildcard tests/*.c))
TEST_HELPER_OBJS := $(TEST_HELPERS:%.c=$(BUILD)/%.o)

.PHONY: all check tests clean format
all: $(BUILD)/iochar

$(BUILD)/iochar: $(BUILD)/src/main.o $(BUILD)/libiochar.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/libiochar.a: $(LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

$(BUILD)/tests/%: $(BUILD)/tests/%.o $(TEST_HELPER_OBJS) $(BUILD)/libiochar.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS) $(TEST_LIBS)

tests: $(BUILD)/iochar $(TEST_BINS)

# Runs every test binary; the summary line is the suite's verdict.
check: tests
	@IOCHAR=$(BUILD)/iochar tests/run_all.sh $(TEST_BINS)

format:
	clang-format -i $(SRCS) $(wildcard src/*/*.h) $(wildcard tests/*.c tests/*.h)

clean:
	rm -rf build build-san build-nompi build-san-nompi

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# Fuzzing with libFuzzer: `make fuzz` builds build-fuzz/fuzz_NAME for each
# tests/fuzz/fuzz_NAME.c with clang, the library instrumented for coverage
# and ASan+UBSan (objects in build-fuzz/, apart from the other builds).
# scripts/fuzz.sh builds and runs them.
FUZZ_CC      ?= clang
FUZZ_BUILD   := build-fuzz
FUZZ_SAN     := address,undefined
FUZZ_CFLAGS  := -std=gnu11 -O1 -g -fno-omit-frame-pointer \
                -fno-sanitize-recover=undefined -Wall -Wextra \
                -Wno-unused-parameter -pthread -Isrc \
                -DIOCHAR_VERSION='"$(VERSION)"' -MMD -MP
FUZZ_SRCS    := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BINS    := $(FUZZ_SRCS:tests/fuzz/%.c=$(FUZZ_BUILD)/%)
FUZZ_LIB_OBJS := $(LIB_SRCS:%.c=$(FUZZ_BUILD)/obj/%.o)

.PHONY: fuzz clean-fuzz valgrind
fuzz: $(FUZZ_BINS)

$(FUZZ_BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link,$(FUZZ_SAN) -c -o $@ $<

$(FUZZ_BUILD)/libiochar.a: $(FUZZ_LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(FUZZ_BUILD)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_BUILD)/libiochar.a
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer,$(FUZZ_SAN) -o $@ $< \
		$(FUZZ_BUILD)/libiochar.a $(LDLIBS)

clean-fuzz:
	rm -rf $(FUZZ_BUILD)

# Short runs of the normal build under valgrind (scripts/valgrind.sh).
valgrind:
	BUILD=$(if $(filter 1,$(SAN)),build,$(BUILD)) scripts/valgrind.sh

-include $(shell find $(FUZZ_BUILD) -name '*.d' 2>/dev/null)
