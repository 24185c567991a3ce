package install

import (
	"strings"

	"github.com/gotk-dev/gotk/core/agentconf"
	"github.com/gotk-dev/gotk/plugins"
)

// content.go: the agent table lives in core/agentconf; what gotk-install
// adds to it is the files' content, from module plugins.

// rulesBody is the rules text's body: the file carries the registry's own
// markers, and the block writer adds them again around the body.
func rulesBody() string {
	body := strings.TrimPrefix(string(plugins.File(plugins.Rules)), agentconf.MDMarkers.Open+"\n")
	return strings.TrimSuffix(body, agentconf.MDMarkers.Close+"\n")
}

// asset returns a part's asset: a plugin file, or the rules body.
func asset(name string) []byte {
	if name == agentconf.AssetRules {
		return []byte(rulesBody())
	}
	return plugins.File(name)
}

// content is the whole file a file part writes.
func content(p *agentconf.Part) []byte {
	if p.Doc != nil {
		return []byte(render(p.Doc, "", "  ", "\n", false) + "\n")
	}
	if p.Asset == "" {
		return []byte(p.Body)
	}
	return append([]byte(p.Prefix), asset(p.Asset)...)
}

// body is the text a block part writes.
func body(p *agentconf.Part) string {
	if p.Asset != "" {
		return p.Prefix + string(asset(p.Asset))
	}
	return p.Body
}
