// Package reviewtest drives a review page (package llm/review) as a
// person's browser would, without a browser: it reads the page's form,
// changes it as a person would (an argument typed, a step moved or
// removed, a reason written) and submits it with the page's cookie and
// token. Use it to test a review page over runs of your own (a store of
// your own, the Temporal adapter) with net/http/httptest.
package reviewtest

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"slices"
	"strings"
)

// Client is one reviewer's browser: it keeps the page's cookie.
type Client struct {
	base *url.URL
	http *http.Client
	user *url.Userinfo
}

// SetBasicAuth makes every later request carry HTTP Basic credentials.
func (c *Client) SetBasicAuth(user, password string) { c.user = url.UserPassword(user, password) }

// Cookies returns the cookies the client holds for u.
func (c *Client) Cookies(u *url.URL) []*http.Cookie { return c.http.Jar.Cookies(u) }

func (c *Client) do(req *http.Request) (*Page, error) {
	if c.user != nil {
		pw, _ := c.user.Password()
		req.SetBasicAuth(c.user.Username(), pw)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	return readPage(resp)
}

// NewClient returns a browser of the review page served at base (the
// handler's root, as "http://127.0.0.1:1234/review/").
func NewClient(base string) (*Client, error) {
	u, err := url.Parse(base)
	if err != nil {
		return nil, err
	}
	jar, err := cookiejar.New(nil)
	if err != nil {
		return nil, err
	}
	return &Client{base: u, http: &http.Client{Jar: jar}}, nil
}

// Page is a page the client got.
type Page struct {
	URL    *url.URL
	Status int
	Body   string
	// Form is the page's decision form, nil when it has none.
	Form *Form
	// Links are the page's links, resolved.
	Links []string
}

// Form is a decision form as the browser would send it.
type Form struct {
	action *url.URL
	fields []field
	// steps maps a step's id to its index in the form; labels a field's
	// id to its label.
	steps  map[string]string
	labels map[string]string
}

type field struct {
	name, value, kind string
	checked           bool
}

// Get gets the page at path, relative to the handler's root ("" for the
// list, "runs/ID" for a run).
func (c *Client) Get(path string) (*Page, error) {
	u := c.base.ResolveReference(&url.URL{Path: path})
	req, err := http.NewRequest(http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	return c.do(req)
}

// Submit sends the form with the submit button whose value is do
// ("approve", "reject", "check", "up:I", "down:I").
func (c *Client) Submit(f *Form, do string) (*Page, error) {
	v := f.Values()
	v.Set("do", do)
	req, err := http.NewRequest(http.MethodPost, f.action.String(), strings.NewReader(v.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return c.do(req)
}

func readPage(resp *http.Response) (*Page, error) {
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	p := &Page{URL: resp.Request.URL, Status: resp.StatusCode, Body: string(body)}
	if err := p.parse(); err != nil {
		return nil, fmt.Errorf("reviewtest: %s: %w", p.URL, err)
	}
	return p, nil
}

// parse reads the page's links and form with encoding/xml in its HTML
// mode, which is enough for the pages the handler writes.
func (p *Page) parse() error {
	dec := xml.NewDecoder(strings.NewReader(p.Body))
	dec.Strict = false
	dec.AutoClose = xml.HTMLAutoClose
	dec.Entity = xml.HTMLEntity
	var form *Form
	var textarea, option *field
	var text strings.Builder
	var label string
	var selectField *field
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			a := attrs(t)
			switch t.Name.Local {
			case "a":
				if href, ok := a["href"]; ok {
					if u, err := p.URL.Parse(href); err == nil {
						p.Links = append(p.Links, u.String())
					}
				}
			case "form":
				action, err := p.URL.Parse(a["action"])
				if err != nil {
					return err
				}
				form = &Form{action: action, steps: map[string]string{}, labels: map[string]string{}}
				p.Form = form
			case "li":
				if id, ok := a["data-step"]; ok && form != nil {
					form.steps[id] = strings.TrimPrefix(a["id"], "step-")
				}
			case "label":
				label = a["for"]
				text.Reset()
			case "input":
				if form == nil || a["name"] == "" {
					continue
				}
				_, checked := a["checked"]
				form.fields = append(form.fields, field{name: a["name"], value: a["value"], kind: a["type"], checked: checked})
			case "textarea":
				if form != nil {
					form.fields = append(form.fields, field{name: a["name"], kind: "textarea"})
					textarea = &form.fields[len(form.fields)-1]
					text.Reset()
				}
			case "select":
				if form != nil {
					form.fields = append(form.fields, field{name: a["name"], kind: "select"})
					selectField = &form.fields[len(form.fields)-1]
				}
			case "option":
				_, selected := a["selected"]
				value, hasValue := a["value"]
				option = &field{value: value, checked: selected, kind: map[bool]string{true: "value"}[hasValue]}
				text.Reset()
			}
		case xml.CharData:
			text.Write(t)
		case xml.EndElement:
			switch t.Name.Local {
			case "textarea":
				if textarea != nil {
					textarea.value = strings.TrimPrefix(text.String(), "\n")
					textarea = nil
				}
			case "option":
				if option != nil && selectField != nil {
					if option.kind != "value" {
						option.value = text.String()
					}
					if option.checked || selectField.value == "" {
						selectField.value = option.value
					}
				}
				option = nil
			case "select":
				selectField = nil
			case "label":
				if form != nil && label != "" {
					form.labels[label] = strings.TrimSpace(strings.Fields(text.String() + " ")[0])
				}
				label = ""
			}
		}
	}
	return nil
}

func attrs(t xml.StartElement) map[string]string {
	m := make(map[string]string, len(t.Attr))
	for _, a := range t.Attr {
		m[a.Name.Local] = a.Value
	}
	return m
}

// Values returns the form as the browser sends it: every named input,
// the checkboxes that are checked, in page order (the steps' order).
func (f *Form) Values() url.Values {
	v := url.Values{}
	for _, fd := range f.fields {
		switch fd.kind {
		case "submit":
			continue
		case "checkbox":
			if !fd.checked {
				continue
			}
		}
		v.Add(fd.name, fd.value)
	}
	return v
}

// Get returns the value of the first field named name.
func (f *Form) Get(name string) string {
	for _, fd := range f.fields {
		if fd.name == name {
			return fd.value
		}
	}
	return ""
}

// Set sets the value of the first field named name.
func (f *Form) Set(name, value string) error {
	for i := range f.fields {
		if f.fields[i].name == name {
			f.fields[i].value = value
			return nil
		}
	}
	return fmt.Errorf("reviewtest: the form has no field %q", name)
}

// SetArg types value as the argument arg of the step id.
func (f *Form) SetArg(stepID, arg, value string) error {
	name, err := f.ArgField(stepID, arg)
	if err != nil {
		return err
	}
	return f.Set(name, value)
}

// ArgField returns the name of the field of argument arg of step id.
func (f *Form) ArgField(stepID, arg string) (string, error) {
	idx, ok := f.steps[stepID]
	if !ok {
		return "", fmt.Errorf("reviewtest: the form has no step %q", stepID)
	}
	prefix := "a-" + idx + "-"
	for id, l := range f.labels {
		if strings.HasPrefix(id, prefix) && l == arg {
			return id, nil
		}
	}
	return "", fmt.Errorf("reviewtest: step %q has no argument %q", stepID, arg)
}

// Remove ticks the "remove" box of the step id.
func (f *Form) Remove(stepID string) error {
	idx, ok := f.steps[stepID]
	if !ok {
		return fmt.Errorf("reviewtest: the form has no step %q", stepID)
	}
	for i := range f.fields {
		if f.fields[i].name == "remove" && f.fields[i].value == idx {
			f.fields[i].checked = true
			return nil
		}
	}
	return fmt.Errorf("reviewtest: step %q cannot be removed", stepID)
}

// Order puts the steps in the order of ids, as moving them on the page
// does; steps not named keep their places after them.
func (f *Form) Order(ids ...string) error {
	var order []string
	for _, id := range ids {
		idx, ok := f.steps[id]
		if !ok {
			return fmt.Errorf("reviewtest: the form has no step %q", id)
		}
		order = append(order, idx)
	}
	var slots []int
	var rest []string
	for i, fd := range f.fields {
		if fd.name != "order" {
			continue
		}
		slots = append(slots, i)
		if !slices.Contains(order, fd.value) {
			rest = append(rest, fd.value)
		}
	}
	for k, i := range slots {
		if k < len(order) {
			f.fields[i].value = order[k]
		} else {
			f.fields[i].value = rest[k-len(order)]
		}
	}
	return nil
}

// StepOrder returns the steps' ids in the form's order.
func (f *Form) StepOrder() []string {
	byIndex := map[string]string{}
	for id, idx := range f.steps {
		byIndex[idx] = id
	}
	var out []string
	for _, fd := range f.fields {
		if fd.name == "order" {
			out = append(out, byIndex[fd.value])
		}
	}
	return out
}
