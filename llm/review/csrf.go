package review

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
)

// csrf makes and checks the forms' tokens. A browser gets a random
// session id in a cookie (HttpOnly, SameSite=Strict); every form carries
// the HMAC of that id and the reviewer's name under the handler's key. A
// page of another site can neither read the token nor compute it: it
// would need the key, not only the cookie (which a sibling subdomain
// could set). Requests a browser marks cross-site are refused before the
// token is looked at (http.CrossOriginProtection).
type csrf struct {
	key []byte
}

const sessionCookie = "rolegen_review_session"

// token returns the token of the request's session, starting a session
// when it has none.
func (c *csrf) token(w http.ResponseWriter, r *http.Request, reviewer string) string {
	session := ""
	if ck, err := r.Cookie(sessionCookie); err == nil && len(ck.Value) >= 22 {
		session = ck.Value
	} else {
		var b [18]byte
		_, _ = rand.Read(b[:])
		session = base64.RawURLEncoding.EncodeToString(b[:])
		http.SetCookie(w, &http.Cookie{
			Name:     sessionCookie,
			Value:    session,
			Path:     "/",
			HttpOnly: true,
			Secure:   r.TLS != nil,
			SameSite: http.SameSiteStrictMode,
		})
	}
	return c.sign(session, reviewer)
}

func (c *csrf) sign(session, reviewer string) string {
	m := hmac.New(sha256.New, c.key)
	m.Write([]byte("rolegen review form\x00" + session + "\x00" + reviewer))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// valid says whether token is the token of the request's session.
func (c *csrf) valid(r *http.Request, reviewer, token string) bool {
	ck, err := r.Cookie(sessionCookie)
	if err != nil || token == "" {
		return false
	}
	return hmac.Equal([]byte(token), []byte(c.sign(ck.Value, reviewer)))
}
