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

# Every module in go.work, and every binary: name=package-dir.
MODULES  := $(shell $(GO) work edit -json | sed -n 's/.*"DiskPath": "\.\/\(.*\)".*/\1/p')
AGENTS   := $(patsubst agents/%/,%,$(sort $(dir $(wildcard agents/*/main.go))))
BINARIES := gotk=./runner $(if $(wildcard installer/cmd/gotk-install),gotk-install=./installer/cmd/gotk-install,$(if $(wildcard installer/main.go),gotk-install=./installer)) \
            $(foreach a,$(AGENTS),gotk-hook-$(a)=./agents/$(a))
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS  := -s -w -X main.version=$(VERSION) -X github.com/gotk-dev/gotk/installer/install.Version=$(VERSION)
# The hook binaries answer --version from core/hookio.
LDFLAGS  += -X github.com/gotk-dev/gotk/core/hookio.Version=$(VERSION)
FUZZTIME ?= 10s

.PHONY: all build install uninstall test test-go test-plugins bench fuzz cross e2e clean fmt fmt-check vet

all: build

build:
	@mkdir -p $(BIN)
	@set -e; for b in $(BINARIES); do n=$${b%%=*}; p=$${b#*=}; \
	  echo "go build -o bin/$$n $$p"; CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN)/$$n $$p; done

install: build
	@mkdir -p $(BINDIR)
	@set -e; for b in $(BINARIES); do n=$${b%%=*}; install -m 0755 $(BIN)/$$n $(BINDIR)/$$n; echo "installed $(BINDIR)/$$n"; done
	@case ":$$PATH:" in *":$(BINDIR):"*) ;; *) echo "note: $(BINDIR) is not on your PATH; add it, or run: make install PREFIX=/usr/local";; esac

uninstall:
	@for b in $(BINARIES); do rm -f $(BINDIR)/$${b%%=*}; done

test: test-go test-plugins

test-go: fmt-check
	@set -e; for m in $(MODULES); do echo "== go test $$m"; (cd $$m && $(GO) vet ./... && $(GO) test -count=1 ./...); done

test-plugins:
	@if [ -f plugins/Makefile ]; then $(MAKE) -C plugins test; fi

bench: build
	@set -e; for m in $(MODULES); do (cd $$m && $(GO) test -run '^$$' -bench . -benchmem ./... | grep -v '^ok\|^PASS\|no test files' || true); done

fuzz:
	@set -e; for m in $(MODULES); do \
	  for pkg in $$(cd $$m && $(GO) list ./...); do \
	    for f in $$(cd $$m && $(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	      echo "== fuzz $$pkg $$f ($(FUZZTIME))"; (cd $$m && $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg); done; done; done

cross:
	@set -e; for os in linux darwin windows; do for arch in amd64 arm64; do \
	  for b in $(BINARIES); do n=$${b%%=*}; p=$${b#*=}; ext=; [ $$os = windows ] && ext=.exe; \
	    CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o dist/$$os-$$arch/$$n$$ext $$p; done; \
	  echo "built dist/$$os-$$arch"; done; done

e2e: build
	@if [ -d e2e ]; then $(MAKE) -C e2e e2e BIN=$(BIN); fi

fmt:
	gofmt -w $$(git ls-files '*.go')

# fmt-check fails on any Go file gofmt would change (make fmt fixes them).
fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed (run make fmt):"; echo "$$out"; exit 1; fi

clean:
	rm -rf $(BIN) dist
