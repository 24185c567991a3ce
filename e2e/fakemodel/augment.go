package fakemodel

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// augment.go: Augment's own API, the only one Auggie (npm
// @augmentcode/auggie) talks to. Auggie is pointed at it by its session
// (AUGMENT_SESSION_AUTH's tenantURL = AugmentTenantURL) and joins each
// endpoint to that URL: POST get-models (the models and the tenant's
// feature flags; without enable_hooks Auggie runs no hook),
// agents/list-remote-tools, chat-stream (the model: NDJSON out), and a few
// settings calls that any empty object answers.

// Augment is Augment's chat-stream wire format.
const Augment API = "augment"

// augmentPrefix is where the server plays Augment's API.
const augmentPrefix = "/augment/"

// AugmentTenantURL is the tenant URL to give Auggie.
func (s *Server) AugmentTenantURL() string { return s.URL() + augmentPrefix }

// Augment node types (the "type" of a request or response node).
const (
	augmentText       = 0
	augmentToolResult = 1
	augmentIDEState   = 4
	augmentToolUse    = 5
	augmentTokenUsage = 10
)

// Augment stop reasons: the turn ended, or it wants its tool calls run.
const (
	augmentEndTurn  = 1
	augmentToolCall = 3
)

// augment answers one request under augmentPrefix.
func (s *Server) augment(w http.ResponseWriter, r *http.Request, body []byte) (API, string, string, string) {
	switch p := strings.TrimPrefix(r.URL.Path, augmentPrefix); p {
	case "get-models":
		writeJSON(w, map[string]any{
			"default_model": "fake-model",
			"models": []any{map[string]any{"name": "fake-model", "internal_name": "fake-model",
				"suggested_prefix_char_count": 0, "suggested_suffix_char_count": 0}},
			"feature_flags": map[string]any{"enable_hooks": true},
		})
		return "", "", "", "augment models"
	case "chat-stream":
		return s.model(w, Augment, body, false)
	case "agents/list-remote-tools":
		writeJSON(w, map[string]any{"tools": []any{}})
		return "", "", "", "augment tools"
	default:
		writeJSON(w, map[string]any{})
		return "", "", "", "augment {}"
	}
}

// augmentNode is one node of a chat-stream request or response.
type augmentNode struct {
	Type     int `json:"type"`
	TextNode *struct {
		Content string `json:"content"`
	} `json:"text_node"`
	ToolResultNode *struct {
		ToolUseID string `json:"tool_use_id"`
		Content   string `json:"content"`
	} `json:"tool_result_node"`
	ToolUse *struct {
		ToolUseID string `json:"tool_use_id"`
		ToolName  string `json:"tool_name"`
	} `json:"tool_use"`
	IDEStateNode *struct {
		CurrentTerminal struct {
			Cwd string `json:"current_working_directory"`
		} `json:"current_terminal"`
	} `json:"ide_state_node"`
}

// parseAugment reads a chat-stream request: the tools offered, and the
// conversation so far — earlier exchanges in chat_history (each request's
// nodes, then the model's), this turn's nodes last.
func parseAugment(body []byte) (*conversation, error) {
	var req struct {
		Model       string        `json:"model"`
		Nodes       []augmentNode `json:"nodes"`
		ChatHistory []struct {
			RequestNodes  []augmentNode `json:"request_nodes"`
			ResponseNodes []augmentNode `json:"response_nodes"`
		} `json:"chat_history"`
		ToolDefinitions []struct {
			Name            string `json:"name"`
			InputSchemaJSON string `json:"input_schema_json"`
		} `json:"tool_definitions"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return nil, fmt.Errorf("augment chat-stream request: %v", err)
	}
	c := &conversation{model: req.Model}
	for _, t := range req.ToolDefinitions {
		var schema map[string]any
		_ = json.Unmarshal([]byte(t.InputSchemaJSON), &schema)
		c.tools = append(c.tools, tool{Name: t.Name, Schema: schema})
	}
	names := map[string]string{}
	read := func(nodes []augmentNode) {
		for _, n := range nodes {
			switch {
			case n.Type == augmentText && n.TextNode != nil && c.firstUser == "":
				c.firstUser = n.TextNode.Content
			case n.Type == augmentToolUse && n.ToolUse != nil:
				names[n.ToolUse.ToolUseID] = n.ToolUse.ToolName
			case n.Type == augmentToolResult && n.ToolResultNode != nil:
				id := n.ToolResultNode.ToolUseID
				c.results = append(c.results, result{CallID: id, Name: names[id], Text: n.ToolResultNode.Content})
			case n.Type == augmentIDEState && n.IDEStateNode != nil:
				c.cwd = n.IDEStateNode.CurrentTerminal.Cwd
			}
		}
	}
	for _, h := range req.ChatHistory {
		read(h.RequestNodes)
		read(h.ResponseNodes)
	}
	read(req.Nodes)
	return c, nil
}

// augmentLaunchArgs completes a launch-process call as a model would:
// wait for the command (a sampled false would start it in the background),
// a limit of a minute, and the terminal's directory (the workspace root).
func augmentLaunchArgs(c *conversation, args map[string]any) {
	args["wait"] = true
	args["max_wait_seconds"] = 60
	if c.cwd != "" {
		args["cwd"] = c.cwd
	} else {
		args["cwd"] = "."
	}
}

// augmentReply writes a chat-stream answer: NDJSON lines, a tool call as a
// tool_use node then stop reason 3, text then stop reason 1; the last line
// carries the request's usage as a token_usage node, which Auggie keeps in
// the session's response nodes.
func augmentReply(w http.ResponseWriter, c *conversation, out output) {
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.WriteHeader(http.StatusOK)
	enc := json.NewEncoder(w)
	in, write, read := c.usage()
	usage := []any{map[string]any{"id": 2, "type": augmentTokenUsage, "content": "", "token_usage": map[string]any{
		"input_tokens": in, "output_tokens": usageOutput, "cache_read_input_tokens": read, "cache_creation_input_tokens": write}}}
	if out.call != nil {
		_ = enc.Encode(map[string]any{"text": "", "nodes": []any{map[string]any{
			"id": 1, "type": augmentToolUse, "content": "",
			"tool_use": map[string]any{"tool_use_id": out.call.ID, "tool_name": out.call.Tool.Name, "input_json": out.call.argsJSON()},
		}}})
		_ = enc.Encode(map[string]any{"text": "", "nodes": usage, "stop_reason": augmentToolCall})
		return
	}
	_ = enc.Encode(map[string]any{"text": out.text})
	_ = enc.Encode(map[string]any{"text": "", "nodes": usage, "stop_reason": augmentEndTurn})
}
