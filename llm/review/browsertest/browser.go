package browsertest

import (
	"context"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/require"
)

var artifacts = flag.String("artifacts", "", "directory of the screenshots (default: $ROLEGEN_ARTIFACTS, else artifacts/ beside the test)")

// chromium finds the browser: $ROLEGEN_CHROMIUM, else Debian's chromium.
func chromium(t testing.TB) string {
	if p := os.Getenv("ROLEGEN_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Fatal("no Chromium found: install it (Debian: apt-get install -y chromium chromium-driver) or set ROLEGEN_CHROMIUM")
	return ""
}

// Browser starts headless Chromium, with the flags a closed network
// needs (no background connections, no component updates, no sync) and
// a new empty profile, and returns a tab of 1200×900 pixels. The browser
// stops when the test ends.
func Browser(t testing.TB) context.Context {
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium(t)),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1200, 900),
	)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(alloc)
	ctx, cancelTimeout := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(func() { cancelTimeout(); cancel(); cancelAlloc() })
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate("about:blank")))
	return ctx
}

// ArtifactDir is where screenshots are kept: -artifacts, else
// $ROLEGEN_ARTIFACTS, else artifacts/ in the test's directory.
func ArtifactDir(t testing.TB) string {
	dir := *artifacts
	if dir == "" {
		dir = os.Getenv("ROLEGEN_ARTIFACTS")
	}
	if dir == "" {
		dir = "artifacts"
	}
	require.NoError(t, os.MkdirAll(dir, 0o755))
	abs, err := filepath.Abs(dir)
	require.NoError(t, err)
	return abs
}

// Shoot keeps a screenshot of the whole page as an artifact.
func Shoot(t testing.TB, ctx context.Context, name string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	require.NoError(t, err)
	keep(t, name, png)
}

// ShootTop keeps a screenshot of the top of the page, height pixels of
// it.
func ShootTop(t testing.TB, ctx context.Context, name string, height int64) {
	t.Helper()
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1200, height)))
	_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.scrollTo(0, 0), true`))
	require.NoError(t, err)
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	require.NoError(t, err)
	keep(t, name, png)
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1200, 900)))
}

func keep(t testing.TB, name string, png []byte) {
	path := filepath.Join(ArtifactDir(t), name)
	require.NoError(t, os.WriteFile(path, png, 0o644))
	t.Logf("screenshot: %s", path)
}

// StepOrder returns the ids of the steps in the order the page shows.
func StepOrder(t testing.TB, ctx context.Context) []string {
	t.Helper()
	order, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("#steps > li")).map(li => li.dataset.step)`))
	require.NoError(t, err)
	return order
}

// Retype replaces the text of the input sel as a person does: select it
// all, type over it.
func Retype(t testing.TB, ctx context.Context, sel, text string) {
	t.Helper()
	require.NoError(t, chromedp.Do(ctx,
		chromedp.Focus(chromedp.CSS(sel)),
		chromedp.KeyEvent("a", chromedp.KeyModifiers(chromedp.ModifierCtrl)),
		chromedp.KeyEvent(kb.Backspace),
		chromedp.KeyEvent(text),
	))
	got, err := chromedp.Run(ctx, chromedp.Value(chromedp.CSS(sel)))
	require.NoError(t, err)
	require.Equal(t, text, got)
}

// Text returns the text of the first element sel selects, its spacing
// collapsed.
func Text(t testing.TB, ctx context.Context, sel string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
	require.NoError(t, err)
	return strings.Join(strings.Fields(s), " ")
}

// MoveWithKeyboard focuses the input sel and presses Alt+↑ (up) or
// Alt+↓, as a person moving the step it is in does.
func MoveWithKeyboard(t testing.TB, ctx context.Context, sel string, up bool) {
	t.Helper()
	key := kb.ArrowDown
	if up {
		key = kb.ArrowUp
	}
	require.NoError(t, chromedp.Do(ctx,
		chromedp.Focus(chromedp.CSS(sel)),
		chromedp.KeyEvent(key, chromedp.KeyModifiers(chromedp.ModifierAlt)),
	))
}
