module github.com/gotk-dev/gotk/runner

go 1.26.0

require (
	github.com/BurntSushi/toml v1.6.0
	github.com/gotk-dev/gotk/core v0.1.0
	github.com/tailscale/hujson v0.0.0-20260727124030-b80ff77dac4f
)

require (
	go.starlark.net v0.0.0-20260908191801-89a6a09411d5 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/tools v0.52.0 // indirect
	mvdan.cc/sh/v3 v3.14.1 // indirect
)

require (
	github.com/alecthomas/kong v1.17.0
	github.com/dlclark/regexp2/v2 v2.5.1 // indirect
	github.com/dustin/go-humanize v1.1.0 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/klauspost/compress v1.20.4
	github.com/mattn/go-isatty v0.0.24
	github.com/ncruces/go-strftime v1.1.0 // indirect
	github.com/remyoudompheng/bigfft v0.0.0-20230129092748-24d4a6f8daec // indirect
	github.com/rogpeppe/go-internal v1.16.0
	github.com/tiktoken-go/tokenizer v0.10.0
	golang.org/x/sys v0.49.0
	modernc.org/libc v1.80.1 // indirect
	modernc.org/mathutil v1.7.1 // indirect
	modernc.org/memory v1.12.1 // indirect
	modernc.org/sqlite v1.62.0
)
