module github.com/gotk-dev/gotk/core

go 1.26.0

require mvdan.cc/sh/v3 v3.14.1

require (
	github.com/BurntSushi/toml v1.6.0 // indirect
	github.com/rogpeppe/go-internal v1.16.0 // indirect
	github.com/tailscale/hujson v0.0.0-20260727124030-b80ff77dac4f // indirect
)
