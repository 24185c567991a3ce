// Package tokens counts o200k_base tokens, the encoding `gotk gain
// --exact` and `gotk discover` report in. The encoder (tiktoken-go, a
// 200k-entry vocabulary) is linked only into gotk-report, which wires it
// with Use(o200k.New): its package initialisers would cost every
// `gotk <program>` start, which never counts a token.
package tokens

import "errors"

// Counter counts the tokens of a text.
type Counter interface {
	Count(text string) (int, error)
}

var newCounter func() Counter

// Use sets the encoder's constructor.
func Use(f func() Counter) { newCounter = f }

// ErrNotLinked: this binary has no encoder (gotk-report has).
var ErrNotLinked = errors.New("this binary does not link the o200k tokenizer (gotk-report does)")

// O200k returns a new counter, or ErrNotLinked.
func O200k() (Counter, error) {
	if newCounter == nil {
		return nil, ErrNotLinked
	}
	return newCounter(), nil
}

// Linked reports whether an encoder is wired.
func Linked() bool { return newCounter != nil }
