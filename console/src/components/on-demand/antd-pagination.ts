// Fetched on demand by ../on-demand.tsx: a chunk of its own.
export { Pagination } from 'antd';
