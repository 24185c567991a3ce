module github.com/gotk-dev/gotk/installer

go 1.26.0

require (
	github.com/BurntSushi/toml v1.6.0
	github.com/alecthomas/kong v1.17.0
	github.com/gofrs/flock v0.13.2
	github.com/google/renameio/v2 v2.0.2
)

require (
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/tools v0.26.0 // indirect
)

require (
	github.com/gotk-dev/gotk/plugins v0.0.0
	github.com/rogpeppe/go-internal v1.16.0
	github.com/tailscale/hujson v0.0.0-20260727124030-b80ff77dac4f
)

replace github.com/gotk-dev/gotk/plugins => ../plugins
