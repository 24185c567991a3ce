module github.com/gotk-dev/gotk/agents/crush

go 1.26.0

require github.com/gotk-dev/gotk/core v0.1.0

require (
	github.com/BurntSushi/toml v1.6.0 // indirect
	github.com/rogpeppe/go-internal v1.16.0 // indirect
	github.com/tailscale/hujson v0.0.0-20260727124030-b80ff77dac4f // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/tools v0.52.0 // indirect
	mvdan.cc/sh/v3 v3.14.1 // indirect
)
