// Stylesheets imported for their side effect; the bundler emits them as a separate .css file.
declare module '*.css'
