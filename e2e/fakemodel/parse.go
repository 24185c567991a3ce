package fakemodel

import (
	"encoding/json"
	"fmt"
	"strings"
)

// conversation is the part of a model request the server acts on, the same
// for every wire format.
type conversation struct {
	model   string
	stream  bool
	tools   []tool
	results []result
	// jsonSchema is set when the request asks for structured JSON output
	// ({} when any JSON will do).
	jsonSchema map[string]any
	// chatUsage: a Chat Completions stream asked for a final usage chunk.
	chatUsage bool
	// firstUser is the text of the conversation's first user message: what
	// tells a subagent's conversation from its parent's.
	firstUser string
	// cwd is the agent's working directory where the request says it
	// (Augment's terminal state), "" elsewhere.
	cwd string
	// prompt is the request's size in tokens (bytes/4), and fresh the part
	// of it a prompt cache could not have held: the last tool result.
	prompt, fresh int64
}

// Usage figures the replies report, in every wire format's own fields, so
// that the agents record figures a test can recompute: the prompt is
// bytes/4 of the request body; of it, the last tool result (bytes/4) plus
// usageUncached is new and the rest comes from the cache; every reply is
// usageOutput tokens.
const (
	usageUncached = 3
	usageOutput   = 20
)

// usage splits the prompt into uncached input, cache write and cache read.
func (c *conversation) usage() (input, cacheWrite, cacheRead int64) {
	input = min(usageUncached, c.prompt)
	cacheWrite = min(c.fresh, c.prompt-input)
	return input, cacheWrite, c.prompt - input - cacheWrite
}

// tool is one function the request offers the model.
type tool struct {
	Name   string
	Schema map[string]any // JSON Schema of the arguments; may be nil
	// Kind is the Responses API tool type ("function", "custom",
	// "local_shell"), "" elsewhere.
	Kind string
}

// result is one tool result the agent sent back.
type result struct {
	CallID string
	Name   string
	Text   string
}

func (c *conversation) shellTool() tool {
	for _, want := range ShellToolNames {
		for _, t := range c.tools {
			if t.Name == want {
				return t
			}
		}
	}
	return tool{}
}

// tool returns the offered tool named name, or none.
func (c *conversation) tool(name string) tool {
	for _, t := range c.tools {
		if t.Name == name {
			return t
		}
	}
	return tool{}
}

func parse(api API, body []byte) (*conversation, error) {
	c, err := parseAPI(api, body)
	if c != nil {
		c.prompt = int64(len(body) / 4)
		if n := len(c.results); n > 0 {
			c.fresh = int64(len(c.results[n-1].Text) / 4)
		}
	}
	return c, err
}

func parseAPI(api API, body []byte) (*conversation, error) {
	switch api {
	case Anthropic:
		return parseAnthropic(body)
	case Gemini:
		return parseGemini(body)
	case ChatCompletions:
		return parseChat(body)
	case Responses:
		return parseResponses(body)
	case Augment:
		return parseAugment(body)
	}
	return nil, fmt.Errorf("unknown API %q", api)
}

func parseAnthropic(body []byte) (*conversation, error) {
	var req struct {
		Model    string `json:"model"`
		Stream   bool   `json:"stream"`
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		Tools []struct {
			Name        string         `json:"name"`
			InputSchema map[string]any `json:"input_schema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return nil, fmt.Errorf("anthropic request: %v", err)
	}
	c := &conversation{model: req.Model, stream: req.Stream}
	for _, t := range req.Tools {
		c.tools = append(c.tools, tool{Name: t.Name, Schema: t.InputSchema})
	}
	names := map[string]string{} // tool_use id → tool name
	for _, m := range req.Messages {
		if m.Role == "user" && c.firstUser == "" {
			c.firstUser = flatten(m.Content)
		}
		var blocks []struct {
			Type      string          `json:"type"`
			ID        string          `json:"id"`
			Name      string          `json:"name"`
			ToolUseID string          `json:"tool_use_id"`
			Content   json.RawMessage `json:"content"`
		}
		if json.Unmarshal(m.Content, &blocks) != nil {
			continue // a plain string message
		}
		for _, b := range blocks {
			switch b.Type {
			case "tool_use":
				names[b.ID] = b.Name
			case "tool_result":
				c.results = append(c.results, result{CallID: b.ToolUseID, Name: names[b.ToolUseID], Text: flatten(b.Content)})
			}
		}
	}
	return c, nil
}

func parseGemini(body []byte) (*conversation, error) {
	var req struct {
		Model    string `json:"model"`
		Contents []struct {
			Role  string `json:"role"`
			Parts []struct {
				Text             string `json:"text"`
				FunctionResponse *struct {
					ID       string         `json:"id"`
					Name     string         `json:"name"`
					Response map[string]any `json:"response"`
				} `json:"functionResponse"`
			} `json:"parts"`
		} `json:"contents"`
		Tools []struct {
			FunctionDeclarations []struct {
				Name                 string         `json:"name"`
				Parameters           map[string]any `json:"parameters"`
				ParametersJSONSchema map[string]any `json:"parametersJsonSchema"`
			} `json:"functionDeclarations"`
		} `json:"tools"`
		GenerationConfig struct {
			ResponseMimeType   string         `json:"responseMimeType"`
			ResponseSchema     map[string]any `json:"responseSchema"`
			ResponseJSONSchema map[string]any `json:"responseJsonSchema"`
		} `json:"generationConfig"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return nil, fmt.Errorf("gemini request: %v", err)
	}
	c := &conversation{model: req.Model}
	for _, t := range req.Tools {
		for _, f := range t.FunctionDeclarations {
			s := f.ParametersJSONSchema
			if s == nil {
				s = f.Parameters
			}
			c.tools = append(c.tools, tool{Name: f.Name, Schema: s})
		}
	}
	for i, m := range req.Contents {
		for _, p := range m.Parts {
			if i == 0 && m.Role == "user" {
				c.firstUser += p.Text
			}
			if fr := p.FunctionResponse; fr != nil {
				text := ""
				if out, ok := fr.Response["output"].(string); ok {
					text = out
				} else {
					b, _ := json.Marshal(fr.Response)
					text = string(b)
				}
				c.results = append(c.results, result{CallID: fr.ID, Name: fr.Name, Text: text})
			}
		}
	}
	g := req.GenerationConfig
	switch {
	case g.ResponseJSONSchema != nil:
		c.jsonSchema = g.ResponseJSONSchema
	case g.ResponseSchema != nil:
		c.jsonSchema = g.ResponseSchema
	case strings.Contains(g.ResponseMimeType, "json"):
		c.jsonSchema = map[string]any{}
	}
	return c, nil
}

func parseChat(body []byte) (*conversation, error) {
	var req struct {
		Model         string `json:"model"`
		Stream        bool   `json:"stream"`
		StreamOptions struct {
			IncludeUsage bool `json:"include_usage"`
		} `json:"stream_options"`
		Messages []struct {
			Role       string          `json:"role"`
			Content    json.RawMessage `json:"content"`
			ToolCallID string          `json:"tool_call_id"`
			Name       string          `json:"name"`
			ToolCalls  []struct {
				ID       string `json:"id"`
				Function struct {
					Name string `json:"name"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"messages"`
		Tools []struct {
			Function struct {
				Name       string         `json:"name"`
				Parameters map[string]any `json:"parameters"`
			} `json:"function"`
		} `json:"tools"`
		ResponseFormat struct {
			Type       string `json:"type"`
			JSONSchema struct {
				Schema map[string]any `json:"schema"`
			} `json:"json_schema"`
		} `json:"response_format"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return nil, fmt.Errorf("chat completions request: %v", err)
	}
	c := &conversation{model: req.Model, stream: req.Stream, chatUsage: req.StreamOptions.IncludeUsage}
	for _, t := range req.Tools {
		c.tools = append(c.tools, tool{Name: t.Function.Name, Schema: t.Function.Parameters})
	}
	names := map[string]string{}
	for _, m := range req.Messages {
		if m.Role == "user" && c.firstUser == "" {
			c.firstUser = flatten(m.Content)
		}
		for _, tc := range m.ToolCalls {
			names[tc.ID] = tc.Function.Name
		}
		if m.Role == "tool" {
			n := names[m.ToolCallID]
			if n == "" {
				n = m.Name
			}
			c.results = append(c.results, result{CallID: m.ToolCallID, Name: n, Text: flatten(m.Content)})
		}
	}
	switch req.ResponseFormat.Type {
	case "json_schema":
		c.jsonSchema = req.ResponseFormat.JSONSchema.Schema
		if c.jsonSchema == nil {
			c.jsonSchema = map[string]any{}
		}
	case "json_object":
		c.jsonSchema = map[string]any{}
	}
	return c, nil
}

func parseResponses(body []byte) (*conversation, error) {
	var req struct {
		Model  string          `json:"model"`
		Stream bool            `json:"stream"`
		Input  json.RawMessage `json:"input"`
		Tools  []struct {
			Type       string         `json:"type"`
			Name       string         `json:"name"`
			Parameters map[string]any `json:"parameters"`
		} `json:"tools"`
		Text struct {
			Format struct {
				Type   string         `json:"type"`
				Schema map[string]any `json:"schema"`
			} `json:"format"`
		} `json:"text"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return nil, fmt.Errorf("responses request: %v", err)
	}
	c := &conversation{model: req.Model, stream: req.Stream}
	for _, t := range req.Tools {
		name := t.Name
		if name == "" && t.Type == "local_shell" {
			name = "shell"
		}
		c.tools = append(c.tools, tool{Name: name, Schema: t.Parameters, Kind: t.Type})
	}
	var items []struct {
		Type    string          `json:"type"`
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
		CallID  string          `json:"call_id"`
		Name    string          `json:"name"`
		Output  json.RawMessage `json:"output"`
	}
	if json.Unmarshal(req.Input, &items) != nil {
		c.firstUser = flatten(req.Input) // a plain string input
	}
	names := map[string]string{}
	for _, it := range items {
		if it.Role == "user" && c.firstUser == "" {
			c.firstUser = flatten(it.Content)
		}
		switch it.Type {
		case "function_call", "custom_tool_call":
			names[it.CallID] = it.Name
		case "local_shell_call":
			names[it.CallID] = "shell"
		case "function_call_output", "custom_tool_call_output", "local_shell_call_output":
			c.results = append(c.results, result{CallID: it.CallID, Name: names[it.CallID], Text: flatten(it.Output)})
		}
	}
	if req.Text.Format.Type == "json_schema" {
		c.jsonSchema = req.Text.Format.Schema
		if c.jsonSchema == nil {
			c.jsonSchema = map[string]any{}
		}
	}
	return c, nil
}

// flatten turns the many shapes of "tool output" into text: a string, an
// array of {type:"text"|"input_text"|"output_text", text} parts, or an
// object with "content" or "output".
func flatten(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) == nil {
		var b strings.Builder
		for _, p := range parts {
			b.WriteString(p.Text)
		}
		return b.String()
	}
	var obj struct {
		Content json.RawMessage `json:"content"`
		Output  json.RawMessage `json:"output"`
	}
	if json.Unmarshal(raw, &obj) == nil {
		if len(obj.Content) > 0 {
			return flatten(obj.Content)
		}
		if len(obj.Output) > 0 {
			return flatten(obj.Output)
		}
	}
	return string(raw)
}
