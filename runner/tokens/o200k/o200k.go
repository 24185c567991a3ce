// Package o200k is the o200k_base encoder behind package tokens
// (tiktoken-go's codec): gotk-report and tests wire it with
// tokens.Use(o200k.New).
package o200k

import (
	"github.com/tiktoken-go/tokenizer/codec"

	"github.com/gotk-dev/gotk/runner/tokens"
)

// New returns an o200k_base counter.
func New() tokens.Counter { return codec.NewO200kBase() }
