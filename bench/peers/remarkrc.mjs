// remark configuration for the peer run of `npm run bench`: GFM, and remark-validate-links told
// that the corpus root is the current directory and that there is no hosted repository to
// detect (so it never shells out to git to look for one, and never goes on the network).
import remarkGfm from 'remark-gfm';
import remarkValidateLinks from 'remark-validate-links';

export default {
  plugins: [remarkGfm, [remarkValidateLinks, { repository: false, root: process.cwd() }]],
};
