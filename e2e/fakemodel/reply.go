package fakemodel

import (
	"encoding/json"
	"net/http"
	"sync/atomic"
	"time"
)

// output is the model's answer to one request: a call, or text.
type output struct {
	call *call
	text string
}

type call struct {
	ID   string
	Tool tool
	Args map[string]any
}

func (c *call) argsJSON() string {
	b, _ := json.Marshal(c.Args)
	return string(b)
}

var respSeq atomic.Int64

func writeReply(w http.ResponseWriter, api API, c *conversation, out output) {
	n := respSeq.Add(1)
	model := c.model
	if model == "" {
		model = "fake-model"
	}
	if c.stream {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-cache")
		w.WriteHeader(http.StatusOK)
	}
	switch api {
	case Anthropic:
		anthropicReply(w, c, model, n, out)
	case Gemini:
		geminiReply(w, c, model, n, out)
	case ChatCompletions:
		chatReply(w, c, model, n, out)
	case Responses:
		responsesReply(w, c, model, n, out)
	case Augment:
		augmentReply(w, c, out)
	}
}

// --- Anthropic Messages ---

func anthropicReply(w http.ResponseWriter, c *conversation, model string, n int64, out output) {
	stream := c.stream
	id := "msg_e2e_" + itoa(n)
	in, write, read := c.usage()
	usage := map[string]any{"input_tokens": in, "output_tokens": usageOutput, "cache_creation_input_tokens": write, "cache_read_input_tokens": read}
	stop := "end_turn"
	var block map[string]any
	if out.call != nil {
		stop = "tool_use"
		block = map[string]any{"type": "tool_use", "id": out.call.ID, "name": out.call.Tool.Name, "input": out.call.Args}
	} else {
		block = map[string]any{"type": "text", "text": out.text}
	}
	if !stream {
		writeJSON(w, map[string]any{
			"id": id, "type": "message", "role": "assistant", "model": model,
			"content": []any{block}, "stop_reason": stop, "stop_sequence": nil, "usage": usage,
		})
		return
	}
	sse(w, "message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": id, "type": "message", "role": "assistant", "model": model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": in, "output_tokens": 1, "cache_creation_input_tokens": write, "cache_read_input_tokens": read},
	}})
	if out.call != nil {
		sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "tool_use", "id": out.call.ID, "name": out.call.Tool.Name, "input": map[string]any{}}})
		sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "input_json_delta", "partial_json": out.call.argsJSON()}})
	} else {
		sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "text", "text": ""}})
		sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "text_delta", "text": out.text}})
	}
	sse(w, "content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	sse(w, "message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": usageOutput}})
	sse(w, "message_stop", map[string]any{"type": "message_stop"})
}

// --- Gemini ---

func geminiReply(w http.ResponseWriter, c *conversation, model string, n int64, out output) {
	stream := c.stream
	in, write, read := c.usage()
	var part map[string]any
	if out.call != nil {
		part = map[string]any{"functionCall": map[string]any{"id": out.call.ID, "name": out.call.Tool.Name, "args": out.call.Args}}
	} else {
		part = map[string]any{"text": out.text}
	}
	resp := map[string]any{
		"candidates": []any{map[string]any{
			"content":      map[string]any{"role": "model", "parts": []any{part}},
			"finishReason": "STOP", "index": 0,
		}},
		"usageMetadata": map[string]any{"promptTokenCount": in + write + read, "cachedContentTokenCount": read,
			"candidatesTokenCount": usageOutput, "totalTokenCount": in + write + read + usageOutput},
		"modelVersion": model,
		"responseId":   "e2e-" + itoa(n),
	}
	if !stream {
		writeJSON(w, resp)
		return
	}
	sse(w, "", resp)
}

// --- OpenAI Chat Completions ---

func chatReply(w http.ResponseWriter, c *conversation, model string, n int64, out output) {
	id := "chatcmpl-e2e-" + itoa(n)
	created := time.Now().Unix()
	in, write, read := c.usage()
	usage := map[string]any{"prompt_tokens": in + write + read, "prompt_tokens_details": map[string]any{"cached_tokens": read},
		"completion_tokens": usageOutput, "total_tokens": in + write + read + usageOutput}
	finish := "stop"
	msg := map[string]any{"role": "assistant", "content": out.text}
	var toolCall map[string]any
	if out.call != nil {
		finish = "tool_calls"
		toolCall = map[string]any{"id": out.call.ID, "type": "function",
			"function": map[string]any{"name": out.call.Tool.Name, "arguments": out.call.argsJSON()}}
		msg = map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{toolCall}}
	}
	if !c.stream {
		writeJSON(w, map[string]any{
			"id": id, "object": "chat.completion", "created": created, "model": model,
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
			"usage":   usage,
		})
		return
	}
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{"id": id, "object": "chat.completion.chunk", "created": created, "model": model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
	}
	if out.call != nil {
		toolCall["index"] = 0
		sse(w, "", chunk(map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{toolCall}}, nil))
	} else {
		sse(w, "", chunk(map[string]any{"role": "assistant", "content": ""}, nil))
		sse(w, "", chunk(map[string]any{"content": out.text}, nil))
	}
	sse(w, "", chunk(map[string]any{}, finish))
	if c.chatUsage {
		sse(w, "", map[string]any{"id": id, "object": "chat.completion.chunk", "created": created, "model": model,
			"choices": []any{}, "usage": usage})
	}
	_, _ = w.Write([]byte("data: [DONE]\n\n"))
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

// --- OpenAI Responses ---

func responsesReply(w http.ResponseWriter, c *conversation, model string, n int64, out output) {
	stream := c.stream
	in, write, read := c.usage()
	id := "resp_e2e_" + itoa(n)
	created := time.Now().Unix()
	var item map[string]any
	switch {
	case out.call != nil && out.call.Tool.Kind == "local_shell":
		item = map[string]any{"type": "local_shell_call", "id": "lsh_e2e_" + itoa(n), "call_id": out.call.ID,
			"status": "completed", "action": map[string]any{"type": "exec", "command": out.call.Args["command"]}}
	case out.call != nil:
		item = map[string]any{"type": "function_call", "id": "fc_e2e_" + itoa(n), "call_id": out.call.ID,
			"name": out.call.Tool.Name, "arguments": out.call.argsJSON(), "status": "completed"}
	default:
		item = map[string]any{"type": "message", "id": "msg_e2e_" + itoa(n), "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": out.text, "annotations": []any{}}}}
	}
	usage := map[string]any{
		"input_tokens": in + write + read, "input_tokens_details": map[string]any{"cached_tokens": read},
		"output_tokens": usageOutput, "output_tokens_details": map[string]any{"reasoning_tokens": 0},
		"total_tokens": in + write + read + usageOutput,
	}
	resp := func(status string, output []any) map[string]any {
		r := map[string]any{"id": id, "object": "response", "created_at": created, "status": status,
			"model": model, "output": output}
		if status == "completed" {
			r["usage"] = usage
		}
		return r
	}
	if !stream {
		writeJSON(w, resp("completed", []any{item}))
		return
	}
	seq := 0
	ev := func(typ string, fields map[string]any) {
		fields["type"] = typ
		fields["sequence_number"] = seq
		seq++
		sse(w, typ, fields)
	}
	ev("response.created", map[string]any{"response": resp("in_progress", []any{})})
	ev("response.in_progress", map[string]any{"response": resp("in_progress", []any{})})
	ev("response.output_item.added", map[string]any{"output_index": 0, "item": item})
	if out.call == nil {
		ev("response.output_text.delta", map[string]any{"item_id": item["id"], "output_index": 0, "content_index": 0, "delta": out.text})
		ev("response.output_text.done", map[string]any{"item_id": item["id"], "output_index": 0, "content_index": 0, "text": out.text})
	} else if item["type"] == "function_call" {
		ev("response.function_call_arguments.done", map[string]any{"item_id": item["id"], "output_index": 0, "arguments": item["arguments"]})
	}
	ev("response.output_item.done", map[string]any{"output_index": 0, "item": item})
	ev("response.completed", map[string]any{"response": resp("completed", []any{item})})
}

func itoa(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}
