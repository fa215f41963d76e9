// Package agent is ralph-gate's one contract with the coding-agent clients
// it drives and guards (Claude Code, Codex, the next one): each client is an
// adapter in a folder of its own behind the Client interface, as reviewdog
// keeps its services behind CommentService and DiffService, so that the
// guard and the loop never name a client.
//
// A client adapter knows:
//
//   - its preset: the command line `ralph-gate run --agent NAME` runs, with
//     the permissions that let the agent edit and run commands while every
//     call still passes the guard;
//   - its hook payloads, decoded into a neutral Call (files read, files
//     changed with how, a shell command, another tool's input), and how to
//     answer one (deny a call, block a stop, tell the agent, warn the user);
//   - where its hooks are installed and how they are trusted, and which of
//     its own files decide its hooks and permissions (protected like the
//     gate's configuration);
//   - the usage lines of its output (tokens, cost).
//
// Files:
//
//	call.go     the neutral tool call and the answer to it
//	client.go   the Client contract and the registry of clients
//	usage.go    the usage an agent reports, summed over its output
//	hooksfile/  the JSON hooks document both clients read
//	claude/     Claude Code
//	codex/      Codex
//
// Adding a client is one new folder implementing Client, registered in
// clients/ (the one place that imports every adapter).
package agent
