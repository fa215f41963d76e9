// Package guard implements ralph-gate's agent hooks: it judges each tool call
// of an agent before it runs (PreToolUse), logs it after it ran
// (PostToolUse), and decides whether the agent may stop (Stop). It judges
// the neutral calls of internal/agent, whatever client made them: the files
// a call reads, the files it changes and how, the command it runs, and, for
// a tool no adapter knows, every path its input names.
//
// The agent controls the working tree; it does not control the repository's
// committed configuration, the loop's recorded commits, or the human. So the
// guard reads .ralph-gate.yml from HEAD's git objects, never from the files the
// agent edits; it treats the gate's own state and configuration as out of the
// agent's reach; and it runs the loop's completion command in a clean
// temporary worktree.
//
// Responsibilities, one file each:
//
//	paths.go     where a path lands: outside the repository, the gate's own files, the clients' settings, a test file
//	edit.go      reading the file a change starts from
//	pretool.go   the PreToolUse decision for reads, file changes and unknown tools
//	bash.go      the PreToolUse decision for shell commands: parsing, words, redirections
//	bashcmds.go  wrappers and commands that run commands (env, sh -c, eval, xargs), ralph-gate
//	bashfiles.go rm, mv and the commands that write files
//	bashfind.go  find -delete and find -exec, simulated over the tree
//	bashgit.go   the git subcommands judged (rm, mv, commit, push, config, tag, reset)
//	posttool.go  the PostToolUse record and the seeds' risk patterns
//	loops.go     the running loop, and where its baseline lies
//	stop.go      the Stop decision: findings and the completion command since the last iteration
package guard
