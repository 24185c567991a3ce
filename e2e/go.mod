module github.com/gotk-dev/gotk/e2e

go 1.26.0

replace github.com/gotk-dev/gotk/core => ../core
