export * from './auth';
export * from './chat';
export * from './constants';
export * from './display';
export * from './messages';
export * from './profiles';
export * from './push';
export * from './validation';
