import { FilePenLine, Upload } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ComingSoon } from '../../components/ComingSoon';
import { buttonClasses } from '../../components/ui/button';

/** Home: the Markdown editor arrives with its own issue; until then an honest placeholder. */
export default function HomePage() {
  const { t } = useTranslation();
  return (
    <div className="mx-auto w-full max-w-4xl">
      <ComingSoon
        icon={FilePenLine}
        title={t('feature.home.title')}
        description={t('feature.home.body')}
        showHomeLink={false}
        actions={
          <Link to="/upload" className={buttonClasses('secondary')}>
            <Upload className="size-4" aria-hidden="true" />
            {t('nav.upload')}
          </Link>
        }
      />
    </div>
  );
}
