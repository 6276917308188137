import { Link } from 'react-router';
import { usePageTitle } from './page';

export function NotFoundPage() {
  usePageTitle('Not found');
  return (
    <section>
      <h1 tabIndex={-1}>Not found</h1>
      <p>
        There is no page here. <Link to="/">Search for a track</Link> or <Link to="/browse">browse the analysed ones</Link>.
      </p>
    </section>
  );
}
