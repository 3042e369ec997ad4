export { CategoriesPane, type CategoriesPaneProps } from './CategoriesPane'
export { CategoryPicker, type CategoryPickerProps } from './CategoryPicker'
export { ConflictView, type ConflictViewProps } from './ConflictView'
export { PostsList, type PostsListProps } from './PostsList'
