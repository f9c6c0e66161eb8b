// Package scribe is a role for the review page's tests: an action whose
// doc comment holds markup, which the page must show as text.
package scribe

import "context"

//go:generate go run github.com/rolegen/rolegen/cmd/rolegen

// Note is what Write writes.
type Note struct {
	// Text is the note, as the model wrote it.
	Text string `json:"text"`
}

// Scribe writes notes.
type Scribe struct {
	Notes int `plan:"state"`

	// Written: a note is written.
	Written struct{} `plan:"goal=Notes > 0"`

	written []string
}

// Write writes a note. <script>alert("doc")</script> <b>bold</b>
//
//plan:action post="Notes++" fulfills=Written
func (s *Scribe) Write(_ context.Context, n Note) error {
	s.written = append(s.written, n.Text)
	s.Notes++
	return nil
}

// Texts returns the notes written.
func (s *Scribe) Texts() []string { return s.written }
