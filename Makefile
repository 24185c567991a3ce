# gotk — build, install and test every binary of the monorepo.
# `make install` then `make test` is all a newcomer needs.

GO      ?= go
BIN     := $(CURDIR)/bin
GOBIN_DEFAULT := $(shell $(GO) env GOBIN)
ifeq ($(GOBIN_DEFAULT),)
GOBIN_DEFAULT := $(shell $(GO) env GOPATH)/bin
endif
PREFIX  ?=
BINDIR  ?= $(if $(PREFIX),$(PREFIX)/bin,$(GOBIN_DEFAULT))

# Every module in go.work, and every binary: a main package at
# <module>/cmd/<binary name> (so `go install <module>/cmd/<name>@<version>`
# names it right too).
MODULES  := $(shell $(GO) work edit -json | sed -n 's/.*"DiskPath": "\.\/\(.*\)".*/\1/p')
CMDS     := $(patsubst %/main.go,./%,$(sort $(wildcard runner/cmd/*/main.go installer/cmd/*/main.go agents/*/cmd/*/main.go)))
BINARIES := $(notdir $(CMDS))
# The release tag (vX.Y.Z; the per-module tags core/vX.Y.Z… are not read),
# or a describe of the commit past it. Every binary prints it for --version.
VERSION  ?= $(shell git describe --tags --match 'v[0-9]*' --always --dirty 2>/dev/null || echo dev)
LDFLAGS  := -s -w -X github.com/gotk-dev/gotk/core/version.Version=$(VERSION)
FUZZTIME ?= 10s

.PHONY: all build install uninstall test test-go test-plugins test-install release bench fuzz dist cross e2e clean fmt fmt-check vet lint staticcheck tidy-check race

all: build

build:
	@mkdir -p $(BIN)
	@echo "go build -o bin/ $(BINARIES)"
	@CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN)/ $(CMDS)

install: build
	@mkdir -p $(BINDIR)
	@set -e; for n in $(BINARIES); do install -m 0755 $(BIN)/$$n $(BINDIR)/$$n; echo "installed $(BINDIR)/$$n"; done
	@case ":$$PATH:" in *":$(BINDIR):"*) ;; *) echo "note: $(BINDIR) is not on your PATH; add it, or run: make install PREFIX=/usr/local";; esac

uninstall:
	@for n in $(BINARIES); do rm -f $(BINDIR)/$$n; done

test: test-go test-plugins test-install

test-go: fmt-check
	@set -e; for m in $(MODULES); do echo "== go test $$m"; (cd $$m && $(GO) vet ./... && $(GO) test -count=1 ./...); done

test-plugins:
	@if [ -f plugins/Makefile ]; then $(MAKE) -C plugins test; fi

# test-install: `go install <module>/cmd/<binary>@<version>` of every binary,
# workspace off, from a file module proxy of the working tree (docs/release.md).
test-install:
	@release/go-install-test.sh

# release tags every module at VERSION in dependency order; it pushes nothing.
release:
	@$(if $(filter command line environment,$(origin VERSION)),release/release.sh $(VERSION),echo "usage: make release VERSION=vX.Y.Z" >&2; exit 2)

# bench: every module's benchmarks in one run, then one report side by side
# (release/benchreport): hooks against the Go floor, the runner's overhead
# and memory, savings and fidelity per category and per family. The load of
# the machine is printed before and after (figures on a busy machine read
# high); the raw output stays in bin/bench.txt.
bench: build
	@mkdir -p $(BIN); echo "== load before: $$(cat /proc/loadavg 2>/dev/null || uptime), $$(nproc 2>/dev/null || echo ?) cores" > $(BIN)/bench.txt
	@set -e; for m in $(MODULES); do (cd $$m && $(GO) test -run '^$$' -bench . -benchmem ./... 2>&1 | grep -v '^ok\|^PASS\|no test files' || true); done >> $(BIN)/bench.txt
	@echo "== load after: $$(cat /proc/loadavg 2>/dev/null || uptime)" >> $(BIN)/bench.txt
	@cd release && $(GO) run ./benchreport < $(BIN)/bench.txt

fuzz:
	@set -e; for m in $(MODULES); do \
	  for pkg in $$(cd $$m && $(GO) list ./...); do \
	    for f in $$(cd $$m && $(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	      echo "== fuzz $$pkg $$f ($(FUZZTIME))"; (cd $$m && $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg); done; done; done

# dist: one archive per OS and architecture (tar.gz; zip for windows) with
# every binary, README.md and LICENSE, and dist/SHA256SUMS.
PLATFORMS ?= linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64
dist:
	@rm -rf dist; set -e; dirs=; for p in $(PLATFORMS); do os=$${p%/*}; arch=$${p#*/}; \
	  d=dist/gotk_$(VERSION)_$${os}_$${arch}; mkdir -p $$d; \
	  CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $$d/ $(CMDS); \
	  cp README.md $$d/; if [ -f LICENSE ]; then cp LICENSE $$d/; else echo "warning: no LICENSE file to ship" >&2; fi; \
	  echo "built $$d"; dirs="$$dirs $$d"; done; \
	  $(GO) run ./release/archive $$dirs

cross: dist

e2e: build
	@if [ -d e2e ]; then $(MAKE) -C e2e e2e BIN=$(BIN); fi

fmt:
	gofmt -w $$(git ls-files '*.go')

# fmt-check fails on any Go file gofmt would change (make fmt fixes them).
fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed (run make fmt):"; echo "$$out"; exit 1; fi

# lint: the checks good Go projects run on every change — gofmt, go vet,
# staticcheck (pinned; installed into bin/tools through the Go module proxy),
# a `go mod tidy` diff of every module, and the race detector over core's and
# runner's tests. .ci/run runs it after make test.
STATICCHECK_VERSION := v0.8.2
STATICCHECK := $(BIN)/tools/staticcheck-$(STATICCHECK_VERSION)

lint: fmt-check vet staticcheck tidy-check race

vet:
	@set -e; for m in $(MODULES); do echo "== go vet $$m"; (cd $$m && $(GO) vet ./...); done

$(STATICCHECK):
	@mkdir -p $(BIN)/tools
	GOBIN=$(BIN)/tools $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)
	@mv $(BIN)/tools/staticcheck $@

staticcheck: $(STATICCHECK)
	@set -e; for m in $(MODULES); do echo "== staticcheck $$m"; (cd $$m && $(STATICCHECK) ./...); done

tidy-check:
	@release/tidy-check.sh

# race: core's and runner's tests under the race detector (cgo: gcc),
# -short: the longest property runs are bounded (the detector is 5-10x
# slower). runner/filter is left out: pure text functions, no goroutines,
# and its corpus passes 10 minutes under the detector.
race:
	@set -e; for m in core runner; do echo "== go test -race $$m"; (cd $$m && CGO_ENABLED=1 $(GO) test -race -short -count=1 $$($(GO) list ./... | grep -v '/runner/filter$$')); done

clean:
	rm -rf $(BIN) dist
