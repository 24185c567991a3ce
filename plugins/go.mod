module github.com/gotk-dev/gotk/plugins

go 1.26.0

// npm installs the plugins' type packages here; they are not Go.
ignore node_modules
