module github.com/gotk-dev/gotk/core

go 1.26.0

require (
	github.com/BurntSushi/toml v1.6.0
	github.com/rogpeppe/go-internal v1.16.0
	github.com/tailscale/hujson v0.0.0-20260727124030-b80ff77dac4f
	go.starlark.net v0.0.0-20260908191801-89a6a09411d5
	go.yaml.in/yaml/v3 v3.0.5
	golang.org/x/sys v0.49.0
	mvdan.cc/sh/v3 v3.14.1
)

require (
	golang.org/x/term v0.45.0 // indirect
	golang.org/x/tools v0.52.0 // indirect
)
