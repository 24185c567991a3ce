module github.com/gotk-dev/gotk/installer

go 1.26.0

require (
	github.com/BurntSushi/toml v1.6.0
	github.com/alecthomas/kong v1.17.0
	github.com/gofrs/flock v0.13.2
	github.com/google/renameio/v2 v2.0.2
	github.com/gotk-dev/gotk/core v0.1.0
	github.com/gotk-dev/gotk/plugins v0.1.0
	github.com/rogpeppe/go-internal v1.16.0
)

require (
	github.com/tailscale/hujson v0.0.0-20260727124030-b80ff77dac4f // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/tools v0.52.0 // indirect
	mvdan.cc/sh/v3 v3.14.1 // indirect
)
