/** Stylesheets are bundled by webpack (css-loader); importing one has no value. */
declare module '*.css';
