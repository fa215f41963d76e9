package ghaction

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
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
	HTTP  *http.Client
}

// ErrNoPermission says the token may not comment: a fork's pull request gets
// a read-only token. The verdict does not depend on the comment.
var ErrNoPermission = errors.New("the token may not comment on this pull request")

type issueComment struct {
	ID   int64  `json:"id"`
	Body string `json:"body"`
}

var nextLink = regexp.MustCompile(`<([^>]+)>;\s*rel="next"`)

// Upsert updates the comment carrying CommentMarker on pull request number, or
// creates one; it reports whether it created it.
func (c Comments) Upsert(ctx context.Context, number int, body string) (created bool, err error) {
	if c.Token == "" {
		return false, fmt.Errorf("no token: %w", ErrNoPermission)
	}
	api := strings.TrimRight(c.API, "/")
	url := fmt.Sprintf("%s/repos/%s/issues/%d/comments?per_page=100", api, c.Repo, number)
	var existing int64
	for url != "" && existing == 0 {
		var list []issueComment
		link, err := c.do(ctx, http.MethodGet, url, nil, &list)
		if err != nil {
			return false, err
		}
		for _, cm := range list {
			if strings.Contains(cm.Body, CommentMarker) {
				existing = cm.ID
				break
			}
		}
		url = ""
		if m := nextLink.FindStringSubmatch(link); m != nil {
			url = m[1]
		}
	}
	payload := map[string]string{"body": body}
	if existing != 0 {
		_, err := c.do(ctx, http.MethodPatch, fmt.Sprintf("%s/repos/%s/issues/comments/%d", api, c.Repo, existing), payload, nil)
		return false, err
	}
	_, err = c.do(ctx, http.MethodPost, fmt.Sprintf("%s/repos/%s/issues/%d/comments", api, c.Repo, number), payload, nil)
	return err == nil, err
}

// do sends one request and decodes the JSON answer into out; it returns the
// Link header.
func (c Comments) do(ctx context.Context, method, url string, in, out any) (string, error) {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return "", err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, body)
	if err != nil {
		return "", err
	}
	req.Header.Set("Authorization", "Bearer "+c.Token)
	req.Header.Set("Accept", "application/vnd.github+json")
	req.Header.Set("X-GitHub-Api-Version", "2022-11-28")
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	client := c.HTTP
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return "", fmt.Errorf("%s %s: %w", method, url, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	switch {
	case resp.StatusCode == http.StatusForbidden || resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusNotFound && method != http.MethodGet:
		return "", fmt.Errorf("%s %s: %s: %w", method, url, resp.Status, ErrNoPermission)
	case resp.StatusCode/100 != 2:
		return "", fmt.Errorf("%s %s: %s: %s", method, url, resp.Status, strings.TrimSpace(string(data)))
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			return "", fmt.Errorf("%s %s: the answer is not the JSON expected: %w", method, url, err)
		}
	}
	return resp.Header.Get("Link"), nil
}
