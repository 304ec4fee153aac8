// Production build into dist/, served by the gateway with an index.html fallback.
import MiniCssExtractPlugin from 'mini-css-extract-plugin';
import { commonConfig } from './webpack.common.js';

const common = commonConfig({ production: true });

export default {
  ...common,
  mode: 'production',
  // No source maps in the served build (security review F20), and never an eval-based devtool:
  // the Content-Security-Policy's script-src 'self' forbids eval.
  devtool: false,
  module: {
    rules: [
      ...common.module.rules,
      { test: /\.css$/, use: [MiniCssExtractPlugin.loader, 'css-loader'] },
    ],
  },
  plugins: [
    ...common.plugins,
    new MiniCssExtractPlugin({
      filename: 'assets/[name].[contenthash:8].css',
      chunkFilename: 'assets/[name].[contenthash:8].css',
    }),
  ],
  performance: { hints: false },
  stats: 'errors-warnings',
};
