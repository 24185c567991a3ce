package fakemodel

import "strings"

// shellArgs builds the arguments of a call of the shell tool t running cmd,
// guided by the tool's own schema: the command goes in "command" (or "cmd",
// Codex's exec_command), as argv when the schema wants an array (Codex's
// shell), "description" is filled when offered, and any other required
// field gets a plausible value. Cline's run_commands gets {"commands":[cmd]}.
func shellArgs(t tool, cmd string) map[string]any {
	props, _ := t.Schema["properties"].(map[string]any)
	key := "command"
	if _, ok := props["command"]; !ok {
		if _, ok := props["cmd"]; ok {
			key = "cmd"
		}
		if _, ok := props["commands"]; ok {
			key = "commands" // Cline's run_commands: a list of command lines
		}
	}
	args := map[string]any{}
	if prop, _ := props[key].(map[string]any); key == "commands" {
		args[key] = []string{cmd}
	} else if typeOf(prop) == "array" {
		args[key] = []string{"bash", "-lc", cmd}
	} else {
		args[key] = cmd
	}
	if _, ok := props["description"]; ok {
		args["description"] = "Run the e2e scripted command"
	}
	return fillRequired(t, props, args)
}

// fillRequired gives every field tool t's schema requires that args lacks
// a plausible value.
func fillRequired(t tool, props map[string]any, args map[string]any) map[string]any {
	req, _ := t.Schema["required"].([]any)
	for _, r := range req {
		name, _ := r.(string)
		if _, done := args[name]; done || name == "" {
			continue
		}
		prop, _ := props[name].(map[string]any)
		args[name] = sample(prop)
	}
	return args
}

// toolArgs completes given with a plausible value for every other field
// tool t's schema requires.
func toolArgs(t tool, given map[string]any) map[string]any {
	props, _ := t.Schema["properties"].(map[string]any)
	args := map[string]any{}
	for k, v := range given {
		args[k] = v
	}
	return fillRequired(t, props, args)
}

// typeOf reads a schema's type, in JSON Schema ("string") or Gemini
// ("STRING") spelling; a list of types gives its first non-null one.
func typeOf(s map[string]any) string {
	switch v := s["type"].(type) {
	case string:
		return strings.ToLower(v)
	case []any:
		for _, x := range v {
			if t, _ := x.(string); t != "" && t != "null" {
				return strings.ToLower(t)
			}
		}
	}
	if _, ok := s["properties"]; ok {
		return "object"
	}
	return ""
}

// sample makes a small value that fits schema s. For enums it prefers
// "user", so that Gemini CLI's "who speaks next" check ends the turn.
func sample(s map[string]any) any {
	if d, ok := s["default"]; ok {
		return d
	}
	if c, ok := s["const"]; ok {
		return c
	}
	if enum, _ := s["enum"].([]any); len(enum) > 0 {
		for _, e := range enum {
			if e == "user" {
				return e
			}
		}
		return enum[0]
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if alts, _ := s[k].([]any); len(alts) > 0 {
			if a, _ := alts[0].(map[string]any); a != nil {
				return sample(a)
			}
		}
	}
	switch typeOf(s) {
	case "object":
		out := map[string]any{}
		props, _ := s["properties"].(map[string]any)
		req, _ := s["required"].([]any)
		names := map[string]bool{}
		for _, r := range req {
			if n, _ := r.(string); n != "" {
				names[n] = true
			}
		}
		if len(names) == 0 {
			for n := range props {
				names[n] = true
			}
		}
		for n := range names {
			p, _ := props[n].(map[string]any)
			out[n] = sample(p)
		}
		return out
	case "array":
		return []any{}
	case "integer", "number":
		if m, ok := s["minimum"]; ok {
			return m
		}
		return 0
	case "boolean":
		return false
	case "string":
		return DefaultFinalText
	}
	return DefaultFinalText
}
