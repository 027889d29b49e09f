// @vitest-environment jsdom
import '../test/dom-shims';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../lib/i18n';
import { $, click } from '../test/dom';
import { cleanup, mount } from '../test/render';
import { PlainButton, PlainCheckbox, PlainErrorAlert, PlainInput, PlainPassword } from './PlainControls';

beforeAll(() => setLanguage('de', false));
afterEach(cleanup);

describe('the antd-free controls of the login page', () => {
  it('show and hide a password with a named button, keeping the typed value', async () => {
    await mount(<PlainPassword id="pw" data-testid="pw" defaultValue="secret" />);
    const input = $('pw') as HTMLInputElement;
    const toggle = document.querySelector('.plain-affix-button')!;
    expect(input.type).toBe('password');
    expect(toggle.getAttribute('aria-label')).toBe('Passwort anzeigen');
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    await click(toggle);
    expect(input.type).toBe('text');
    expect(input.value).toBe('secret');
    expect(toggle.getAttribute('aria-label')).toBe('Passwort verbergen');
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
  });

  it('mark an invalid field for assistive technology and for the eye', async () => {
    await mount(
      <>
        <PlainInput data-testid="ok" />
        <PlainInput data-testid="bad" invalid />
        <PlainPassword data-testid="bad-pw" invalid />
      </>,
    );
    expect($('ok')!.hasAttribute('aria-invalid')).toBe(false);
    expect($('bad')!.getAttribute('aria-invalid')).toBe('true');
    expect($('bad')!.className).toContain('plain-input-error');
    expect($('bad-pw')!.getAttribute('aria-invalid')).toBe('true');
    expect($('bad-pw')!.parentElement!.className).toContain('plain-input-error');
  });

  it('a loading button refuses a second click and says it is busy', async () => {
    const onClick = vi.fn();
    await mount(
      <PlainButton primary loading data-testid="go" onClick={onClick}>
        Go
      </PlainButton>,
    );
    const button = $('go') as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(button.getAttribute('aria-busy')).toBe('true');
    expect(button.type).toBe('button');
    await click(button);
    expect(onClick).not.toHaveBeenCalled();
  });

  it('a checkbox is labelled by its text, and an alert is announced', async () => {
    const onChange = vi.fn();
    await mount(
      <>
        <PlainCheckbox data-testid="stay" checked={false} onChange={onChange}>
          Stay signed in
        </PlainCheckbox>
        <PlainErrorAlert data-testid="err">Invalid password</PlainErrorAlert>
      </>,
    );
    const box = $('stay') as HTMLInputElement;
    expect(box.type).toBe('checkbox');
    expect(box.closest('label')!.textContent).toBe('Stay signed in');
    await click(box);
    expect(onChange).toHaveBeenCalledTimes(1);
    expect($('err')!.getAttribute('role')).toBe('alert');
    expect($('err')!.textContent).toBe('Invalid password');
  });
});
