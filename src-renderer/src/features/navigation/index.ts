export { accountOfView, sameView, useNavigation, type NavigationState, type View } from './store'
