// Sizes are shared with the dashboard, so they live in the dependency-free src/shared.
export { formatSize, parseSize } from '../shared/sizes'
