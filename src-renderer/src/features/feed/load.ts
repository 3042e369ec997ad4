/** The activity feed's code (the virtualiser and its rows): loaded when first shown, or early by the friends list. */
export const loadActivityFeed = () => import('./ActivityFeed')
