import { useId, useState, type FormEvent } from 'react';
import { usePageTitle } from '../app/page';
import { useSession } from './session.context';

/** Shown in place of any page while signed out; the page asked for opens once signed in. */
export function SignInPage() {
  usePageTitle('Sign in');
  const session = useSession();
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const errorId = useId();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const candidate = key.trim();
    if (!candidate) {
      setError('Enter an API key.');
      return;
    }
    setBusy(true);
    const problem = await session.signIn(candidate);
    setBusy(false);
    if (problem) setError(problem.status === 401 || problem.code === 'UNAUTHENTICATED' ? `This key was refused: ${problem.message}` : `Cannot sign in: ${problem.message}`);
  }

  return (
    <section className="sign-in">
      <h1 id="sign-in-title" tabIndex={-1}>
        Sign in
      </h1>
      <p>
        The dashboard uses the API with your key: every request carries it. It is kept in this tab only and forgotten when you sign out or
        close the browser.
      </p>
      {session.notice && (
        <p className="notice" role="status">
          {session.notice}
        </p>
      )}
      <form onSubmit={(e) => void submit(e)} noValidate>
        <label htmlFor="api-key">API key</label>
        <input
          id="api-key"
          name="api-key"
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={key}
          onChange={(e) => setKey(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          required
        />
        {error && (
          <p id={errorId} className="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </section>
  );
}
