export { MAX_MEDIA_BYTES, describeBytes, openMediaFile, tooLarge, unreadable } from './media-file'
export { FIRST_CHUNK_BYTES, readPhotoPreview, type PhotoPreview } from './photo-preview'
export { IMAGE_EXTENSIONS, IMAGE_FORMATS_IN_WORDS, SNIFF_BYTES, sniffImageType, type ImageType } from './sniff'
export { inProcessImages, runImageJob, type EditorPreview, type ImageJob, type ImageResults, type ImageWorker, type WebSized } from './image-jobs'
