package claude

// denyingModes are the permission modes in which Claude denies, without
// asking, every call that would need approval (measured in Claude Code
// 2.1.328: dontAsk, set by --permission-mode or by a subagent's definition;
// the hook's stdin carries the mode of the agent that makes the call). A
// rewrite gotk would answer "ask" about can never run there, and the "ask"
// would tell the model that approval is missing instead of Claude's own
// denial, which says not to try again: gotk gives no answer and Claude
// denies the original command itself.
var denyingModes = map[string]bool{"dontAsk": true}

// classifierModes are the permission modes in which a classifier, not a
// prompt, decides what no rule allows (Claude Code's auto mode: the
// classifier allows by default, and may review even allowed shell
// commands, autoMode.classify_all_shell). gotk cannot know its answer:
// an "allow" could run what it would block, an "ask" prompts for what it
// would run. gotk gives no answer and Claude decides on the original.
var classifierModes = map[string]bool{"auto": true}
