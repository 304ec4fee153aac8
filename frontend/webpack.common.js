// Shared webpack configuration for the dev server and the production build.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import HtmlWebpackPlugin from 'html-webpack-plugin';

const here = path.dirname(fileURLToPath(import.meta.url));

/** @param {{ production: boolean }} options */
export function commonConfig({ production }) {
  return {
    entry: { main: './src/main.tsx' },
    output: {
      path: path.resolve(here, 'dist'),
      publicPath: '/',
      filename: production ? 'assets/[name].[contenthash:8].js' : 'assets/[name].js',
      chunkFilename: production ? 'assets/[name].[contenthash:8].js' : 'assets/[name].js',
      assetModuleFilename: 'assets/[name].[contenthash:8][ext]',
      clean: true,
    },
    resolve: {
      extensions: ['.tsx', '.ts', '.js'],
      alias: {
        '@': path.resolve(here, 'src'),
        // Radix dialogs' scroll lock adds a <style> tag through this package, which the
        // Content-Security-Policy (style-src 'self') refuses; ours uses a constructed stylesheet.
        'react-style-singleton$': path.resolve(here, 'src/lib/cspStyleSingleton.ts'),
      },
    },
    module: {
      rules: [
        {
          test: /\.tsx?$/,
          exclude: /node_modules/,
          use: {
            loader: 'swc-loader',
            options: {
              jsc: {
                parser: { syntax: 'typescript', tsx: true },
                target: 'es2020',
                transform: {
                  react: { runtime: 'automatic', development: !production, refresh: false },
                },
              },
            },
          },
        },
        { test: /\.svg$/, type: 'asset/resource' },
      ],
    },
    plugins: [
      new HtmlWebpackPlugin({
        template: './public/index.html',
        favicon: './public/favicon.svg',
      }),
    ],
  };
}
