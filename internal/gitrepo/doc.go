// Package gitrepo is ralph-gate's only door to git objects: it opens a
// repository, resolves revisions, lists the commits of a range, diffs trees and
// reads blobs, with go-git and without running git (but to fetch what a
// partial clone lacks).
//
// The analyzer runs as a pre-push hook and in CI on large repositories, so the
// package does the least work that answers each question:
//
//   - Open finds the repository from a directory or any parent (a work tree, a
//     linked worktree whose .git is a file, or a bare repository) and opens the
//     object store once, with a bounded object cache (ObjectCacheSize) and pack
//     files kept open; a Repo is reused for every question and closed with Close.
//     Packed objects are found through the pack's .idx file mapped in place
//     (and its .rev file for offset lookups), not through go-git's in-memory
//     index, which copies and checksums the whole index and maps every offset
//     on first use: over 100 ms per process on a repository of 360k objects.
//     Blobs are read from the pack mapped in place: a delta chain is resolved
//     in two buffers that take turns, and only chain roots and results are
//     cached (resolvedCacheSize), where go-git materializes and caches every
//     intermediate version. go-git decodes commits and trees, and reads packs
//     that cannot be mapped.
//     A repository with SHA-256 object names (extensions.objectformat) is
//     refused with ErrUnsupported, naming the way to analyze it anyway (its
//     diff, through analyze --patch): go-git v5 and every layer above hold
//     20-byte SHA-1 names.
//   - The objects read are the repository's own and those of its alternates
//     (objects/info/alternates, which `git clone --shared` and `--reference`
//     write), followed as git follows them: relative paths, quoted lines,
//     alternates of alternates five levels deep. Their packs are indexed like
//     the repository's own, and loose objects are read by this package from
//     every object directory (go-git's storage knows only the first, and
//     loads its in-memory index of every pack on a miss). An object missing
//     while a listed alternate is gone names that directory.
//   - Resolve understands full and short SHAs, HEAD, branches, remote branches,
//     tags (annotated tags peeled to their commit), refs/... names, and the ~n,
//     ^, ^n and ^{commit} suffixes; it never enumerates every object except to
//     expand a short SHA.
//   - MergeBase and Range walk commits newest first by committer date and stop
//     as soon as the answer is known, as git does, instead of loading the whole
//     history. Range(base, head) is the first-parent chain from head back to base
//     when base is on it (the usual agent branch), otherwise every commit
//     reachable from head and not from base, oldest first. A shallow clone that
//     lacks the history needed gives an error wrapping ErrShallow.
//   - Diff compares two commits' trees entry by entry, descending only into
//     subtrees whose hashes differ, and never computes a line patch. Renames are
//     detected by identical content always, and by similar content (git's
//     default 50% threshold, git's chunk-hash similarity) when the number of
//     added x deleted candidates is at most RenameCandidateLimit.
//   - In a partial clone (a promisor remote configured, as `git clone
//     --filter` leaves it) a missing object is fetched through git, with
//     the fetch git's own lazy fetch runs, and the read retried; Prefetch
//     fetches the blobs a diff needs in one fetch. When the remote cannot
//     send it the error wraps ErrNotFetched and says what to do: missing
//     content is never read as empty.
//   - Blob, ReadFile and ListDir read only what is asked for; a blob larger than
//     MaxBlobSize is refused with ErrTooLarge before it is read.
//
// API:
//
//	Open(dir) (*Repo, error)                  // ErrNotRepository, ErrUnsupported
//	Discover(dir) (root, gitDir string, error) // the layout alone, without opening
//	(*Repo).Root() / GitDir() / IsShallow() / IsPartial() / Close()
//	(*Repo).Prefetch(hashes) error                 // ErrNotFetched
//	(*Repo).Resolve(rev) (plumbing.Hash, error)   // *UnknownRevisionError
//	(*Repo).DefaultBranch() (string, error)       // "origin/main", "main", ...
//	(*Repo).MergeBase(a, b) (plumbing.Hash, error) // ErrNoMergeBase, ErrShallow
//	(*Repo).Commit(h) (Commit, error)
//	(*Repo).Range(base, head) ([]Commit, error)    // ErrNotAncestor, ErrShallow
//	(*Repo).Diff(from, to) ([]Change, error)       // from may be ZeroHash
//	(*Repo).DiffTrees(fromTree, toTree) ([]Change, error)
//	(*Repo).Blob(h) ([]byte, error)                // ErrTooLarge
//	(*Repo).ReadFile(commit, path) ([]byte, error) // ErrNotFound
//	(*Repo).ListDir(commit, dir) ([]Entry, error)  // ErrNotFound
//	IsBinary(b) bool
//
// Commit carries Hash, Parent (first parent, ZeroHash for a root), Parents,
// Subject, Author ("Name <email>"), When (author date), Committed and Tree.
// Change carries an Action (Add, Delete, Modify, Rename), From and To entries
// (Path, Hash, Mode: submodules and symbolic links keep their mode so callers
// can skip them) and a rename's Similarity in percent; changes are sorted by
// Change.Path.
//
// A Repo may be used from several goroutines: object reads are serialized.
// If git repacks while a Repo is open, a missing object makes it index the
// new pack files once and retry.
package gitrepo
