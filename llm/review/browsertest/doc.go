// Package browsertest tests the review page (package llm/review) in a
// real browser: headless Chromium (Debian's chromium), driven with
// chromedp. It is a module of its own, so that the main module's tests
// need no browser. Its helpers (Browser, Retype, MoveWithKeyboard,
// StepOrder, Shoot) start the browser with the flags a closed network
// needs and act on the page as a person does; the Temporal adapter's
// browser test uses them too.
package browsertest
