package ghaction

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/ralph-gate/ralph-gate/internal/lazyre"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// CommentMarker is the hidden line the markdown report starts with
// (internal/report); it identifies the gate's own pull request comment.
const CommentMarker = "<!-- ralph-gate-report -->"

// Comments creates or updates the gate's one pull request comment through
// GitHub's REST API.
type Comments struct {
	// API is GITHUB_API_URL (https://api.github.com on github.com).
	API string
	// Repo is owner/name (GITHUB_REPOSITORY).
	Repo  string
	Token string
	// Self is the login the token comments as (default: GET /user, else
	// github-actions[bot], a workflow token's author).
	Self string
	// HTTP is the client (default: one with a 30 second timeout).
	HTTP *http.Client
}

// What Upsert did.
const (
	CommentCreated   = "created"
	CommentUpdated   = "updated"
	CommentUnchanged = "unchanged"
)

// maxCommentPages bounds the search for the existing comment (100 a page).
const maxCommentPages = 50

// ErrNoPermission says the token may not comment: a fork's pull request gets
// a read-only token. The verdict does not depend on the comment.
var ErrNoPermission = errors.New("the token may not comment on this pull request")

type issueComment struct {
	ID   int64  `json:"id"`
	Body string `json:"body"`
	User struct {
		Login string `json:"login"`
	} `json:"user"`
}

// actionsBot is the author of comments made with a workflow's GITHUB_TOKEN,
// which cannot ask GET /user who it is.
const actionsBot = "github-actions[bot]"

var nextLink = lazyre.New(`<([^>]+)>;\s*rel="next"`)

// Upsert updates the comment carrying CommentMarker on pull request number,
// or creates one; it says which (CommentCreated, CommentUpdated, or
// CommentUnchanged when the body is the same). The search follows the Link
// header's next pages, on the API's own host only: the token goes nowhere
// else.
func (c Comments) Upsert(ctx context.Context, number int, body string) (string, error) {
	if c.Token == "" {
		return "", fmt.Errorf("no token: %w", ErrNoPermission)
	}
	api := strings.TrimRight(c.API, "/")
	apiURL, err := url.Parse(api)
	if err != nil || apiURL.Host == "" {
		return "", fmt.Errorf("GITHUB_API_URL %q is not a URL", c.API)
	}
	// Only a comment the token's own account wrote is ours to update:
	// anyone can post a comment carrying the marker.
	self := c.Self
	if self == "" {
		var me struct {
			Login string `json:"login"`
		}
		if _, err := c.do(ctx, http.MethodGet, api+"/user", nil, &me); err == nil && me.Login != "" {
			self = me.Login
		} else {
			self = actionsBot
		}
	}
	next := fmt.Sprintf("%s/repos/%s/issues/%d/comments?per_page=100", api, c.Repo, number)
	var existing *issueComment
	for page := 0; next != "" && existing == nil; page++ {
		if page == maxCommentPages {
			return "", fmt.Errorf("no comment of ours in the first %d comments of #%d", page*100, number)
		}
		var list []issueComment
		link, err := c.do(ctx, http.MethodGet, next, nil, &list)
		if err != nil {
			return "", err
		}
		for i := range list {
			if strings.Contains(list[i].Body, CommentMarker) && strings.EqualFold(list[i].User.Login, self) {
				existing = &list[i]
				break
			}
		}
		next = ""
		if m := nextLink.FindStringSubmatch(link); m != nil {
			u, err := url.Parse(m[1])
			if err != nil || u.Scheme != apiURL.Scheme || u.Host != apiURL.Host {
				return "", fmt.Errorf("the comment list's next page %q is not on %s", m[1], apiURL.Host)
			}
			next = m[1]
		}
	}
	payload := map[string]string{"body": body}
	switch {
	case existing != nil && existing.Body == body:
		return CommentUnchanged, nil
	case existing != nil:
		_, err := c.do(ctx, http.MethodPatch, fmt.Sprintf("%s/repos/%s/issues/comments/%d", api, c.Repo, existing.ID), payload, nil)
		return CommentUpdated, err
	}
	_, err = c.do(ctx, http.MethodPost, fmt.Sprintf("%s/repos/%s/issues/%d/comments", api, c.Repo, number), payload, nil)
	return CommentCreated, err
}

// do sends one request and decodes the JSON answer into out; it returns the
// Link header.
func (c Comments) do(ctx context.Context, method, target string, in, out any) (string, error) {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return "", err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, target, body)
	if err != nil {
		return "", err
	}
	req.Header.Set("Authorization", "Bearer "+c.Token)
	req.Header.Set("Accept", "application/vnd.github+json")
	req.Header.Set("X-GitHub-Api-Version", "2022-11-28")
	req.Header.Set("User-Agent", "ralph-gate")
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	client := c.HTTP
	if client == nil {
		client = &http.Client{Timeout: 30 * time.Second}
	}
	resp, err := client.Do(req)
	if err != nil {
		return "", fmt.Errorf("%s %s: %w", method, target, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	switch {
	case resp.StatusCode == http.StatusForbidden || resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusNotFound && method != http.MethodGet:
		return "", fmt.Errorf("%s %s: %s%s: %w", method, target, resp.Status, apiMessage(data), ErrNoPermission)
	case resp.StatusCode/100 != 2:
		return "", fmt.Errorf("%s %s: %s%s", method, target, resp.Status, apiMessage(data))
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			return "", fmt.Errorf("%s %s: the answer is not the JSON expected: %w", method, target, err)
		}
	}
	return resp.Header.Get("Link"), nil
}

// apiMessage is the "message" of a GitHub error answer, as ": message", on
// one line.
func apiMessage(data []byte) string {
	var e struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(data, &e) != nil || e.Message == "" {
		return ""
	}
	msg := strings.Join(strings.Fields(e.Message), " ")
	if len(msg) > 200 {
		msg = msg[:200] + "…"
	}
	return ": " + msg
}
