package tokens

import (
	"unicode"
	"unicode/utf8"
)

// Estimate approximates the o200k_base token count of b without the
// encoder (whose tables cost every start): it splits b the way the
// encoder's pre-tokenizer does — a word with the blank before it, a run
// of digits in groups of three, a run of punctuation, a line break with
// the indentation after it — and prices each piece by its length, a
// long word or a run of one repeated symbol costing what the encoder's
// merges make of it. gotk compares its output with the raw output by this
// estimate as well as by bytes: box-drawing rules and aligned columns
// are cheap in tokens and dear in bytes, so fewer bytes can still be more
// tokens.
func Estimate(b []byte) int { return estimate(b, -1) }

// estimate stops once the count reaches limit (none when negative).
func estimate(b []byte, limit int) int {
	n := 0
	for i := 0; i < len(b) && (limit < 0 || n < limit); {
		r, size := rune(b[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRune(b[i:])
		}
		switch {
		case r == '\n' || r == '\r':
			// a run of line breaks (the indentation after it is a piece
			// of its own)
			for i < len(b) && (b[i] == '\n' || b[i] == '\r') {
				i++
			}
			n++
		case r == ' ' || r == '\t':
			j := i
			for j < len(b) && (b[j] == ' ' || b[j] == '\t') {
				j++
			}
			// A run of blanks is a token, and so is one blank before a
			// number; one blank joins the word or symbol after it.
			if j-i > 1 || j == len(b) || b[j] == '\n' || b[j] >= '0' && b[j] <= '9' {
				n++
			}
			if j-i > 1 && j < len(b) && b[j] >= '0' && b[j] <= '9' {
				n++ // the last blank before a number stands alone
			}
			i = j
		case unicode.IsLetter(r) || unicode.IsMark(r):
			runes := 0
			for i < len(b) {
				if c := b[i] | 0x20; c >= 'a' && c <= 'z' {
					runes++
					i++
					continue
				}
				r, size := utf8.DecodeRune(b[i:])
				if !unicode.IsLetter(r) && !unicode.IsMark(r) {
					break
				}
				runes++
				i += size
			}
			n += 1 + (runes-1)/8
		case unicode.IsDigit(r):
			digits := 0
			for i < len(b) && b[i] >= '0' && b[i] <= '9' {
				digits++
				i++
			}
			if digits == 0 {
				i += size
				digits = 1
			}
			n += (digits + 2) / 3
		default:
			// punctuation and symbols: a run of one repeated symbol
			// merges far (─────), mixed punctuation about two a token
			first, runes, same := r, 0, true
			for i < len(b) {
				r, size := utf8.DecodeRune(b[i:])
				if r == '\n' || r == '\r' || r == ' ' || r == '\t' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) {
					break
				}
				same = same && r == first
				runes++
				i += size
			}
			if i < len(b) {
				if r, _ := utf8.DecodeRune(b[i:]); unicode.IsLetter(r) {
					runes-- // the symbol before a word joins it (/src, .com, ,b)
				}
			}
			switch {
			case runes <= 0:
			case same:
				n += 1 + (runes-1)/16
			default:
				n += (runes + 1) / 2
			}
		}
	}
	return n
}

// Fewer reports whether shown is worth printing instead of raw (each the
// parts printed one after the other: stdout then stderr): fewer bytes,
// and at least 5% and minSaved fewer tokens by Estimate (the margins
// cover the estimate's error, a share of a long text, a few tokens of a
// short one: where the two are that close, the raw output is printed,
// in its own format). It reads raw only as far as it needs.
func Fewer(shown, raw [][]byte) bool {
	ns, nr := 0, 0
	for _, p := range shown {
		ns += len(p)
	}
	for _, p := range raw {
		nr += len(p)
	}
	if ns >= nr {
		return false
	}
	s := 0
	for _, p := range shown {
		s += Estimate(p)
	}
	need := max((20*s+18)/19, s+minSaved) // 20·s ≤ 19·r, s+minSaved ≤ r
	r := 0
	for _, p := range raw {
		if r >= need {
			break
		}
		r += estimate(p, need-r)
	}
	return r >= need
}

// minSaved is the fewest estimated tokens a compact form must save: in
// a window of a few lines the estimate is off by two or three tokens.
const minSaved = 4
