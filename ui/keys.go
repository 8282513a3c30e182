package ui

import (
	"errors"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"cubeworkbench/core/secret"
)

// keyField lets an officer without a terminal paste an API key: kept for
// this session only or saved in the OS keyring (core/secret). The key goes
// from the password entry straight to secret and the entry is emptied; it
// never reaches the profile, the preferences, the store or a log. The
// field shows where the key in use comes from, never the key.
type keyField struct {
	sh     shell
	ref    func() secret.Ref // whose key: the judge's name, the target's kind
	envVar func() string     // the environment variable the profile names

	entry  *widget.Entry
	where  *widget.RadioGroup
	save   *widget.Button
	forget *widget.Button
	source *widget.Label
	box    *fyne.Container

	// seq numbers the lookups: only the latest one is shown. pending
	// counts those not back yet (tests wait for 0).
	seq, pending int
}

func newKeyField(sh shell, ref func() secret.Ref, envVar func() string) *keyField {
	k := &keyField{sh: sh, ref: ref, envVar: envVar}
	k.entry = widget.NewPasswordEntry()
	k.entry.SetPlaceHolder(tr("key.paste"))
	k.where = widget.NewRadioGroup([]string{tr("key.session"), tr("key.keyring")}, nil)
	k.where.Horizontal = true
	k.where.Required = true
	k.where.SetSelected(tr("key.session"))
	k.save = widget.NewButtonWithIcon(tr("key.save"), theme.ConfirmIcon(), k.Save)
	k.forget = widget.NewButtonWithIcon(tr("key.forget"), theme.DeleteIcon(), k.Forget)
	k.source = widget.NewLabel("")
	k.source.Wrapping = fyne.TextWrapWord
	k.box = container.NewVBox(k.entry, k.where, container.NewHBox(k.save, k.forget), k.source)
	return k
}

// Save hands the typed key to secret and empties the entry (UI thread). A
// keyring that cannot be used keeps the key for the session and says so.
func (k *keyField) Save() {
	key := k.entry.Text
	ref := k.ref()
	where := secret.InMemory
	if k.where.Selected == tr("key.keyring") {
		where = secret.InKeyring
	}
	k.entry.SetText("")
	note := ""
	err := secret.Default().Set(ref, key, where)
	if errors.Is(err, secret.ErrKeyringUnavailable) {
		note = tr("key.keyring_unavailable")
		err = secret.Default().Set(ref, key, secret.InMemory)
	}
	if err != nil {
		k.source.SetText(tr("judges.error") + " " + errText(err))
		return
	}
	k.Refresh(note)
}

// Forget deletes the key from the session and the keyring (UI thread).
func (k *keyField) Forget() {
	note := ""
	if err := secret.Default().Delete(k.ref()); err != nil {
		note = errText(err)
	}
	k.Refresh(note)
}

// Refresh shows where the key now comes from, looked up off the UI thread
// (a keyring may take a while to answer), after note when there is one.
func (k *keyField) Refresh(note string) {
	ref, env := k.ref(), k.envVar()
	if ref.Name == "" {
		k.source.SetText(tr("key.no_name"))
		return
	}
	k.seq++
	k.pending++
	seq := k.seq
	go func() {
		_, src, err := secret.Default().Get(ref, env)
		text := keySourceText(src, env, err)
		if note != "" {
			text = note + "\n" + text
		}
		k.sh.do(func() {
			k.pending--
			if seq == k.seq {
				k.source.SetText(text)
			}
		})
	}()
}

// keySourceText says where a key comes from in the window's language.
func keySourceText(src secret.Source, env string, err error) string {
	switch src {
	case secret.Session:
		return tr("key.from_session")
	case secret.Env:
		return trf("key.from_env", map[string]any{"Env": env})
	case secret.Keyring:
		return tr("key.from_keyring")
	}
	if errors.Is(err, secret.ErrKeyringUnavailable) {
		return tr("key.none") + " " + tr("key.keyring_unavailable")
	}
	return tr("key.none")
}

// enable switches the field with its form.
func (k *keyField) enable(on bool) {
	for _, d := range []fyne.Disableable{k.entry, k.where, k.save, k.forget} {
		if on {
			d.Enable()
		} else {
			d.Disable()
		}
	}
}
